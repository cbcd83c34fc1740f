import type { CheckResult, Sql } from '@guard/shared'
import { type DetectedTransition, detectedTransition, stageMonitorEvents } from '../events/monitor-events.ts'
import {
  applyResult,
  type CertificateState,
  type ErrorState,
  type LocationState,
  type MonitorMachine,
  type QuorumRules,
} from './transition.ts'

interface RulesRow {
  id: string
  organization_id: string
  failure_threshold: number
  quorum_percent: number
}

interface LocationRow {
  monitor_id: string
  location: string
  status: string
  consecutive_failures: number
  last_ms: number
  last_error: string | null
  last_error_kind: string | null
  last_error_ms: number | null
}

interface StateRow {
  monitor_id: string
  status: 'up' | 'down'
  changed_ms: number
  last_check_ms: number
  consecutive_failures: number
  certificate: CertificateState | null
}

const errorOf = (row: { last_error: string | null; last_error_kind: string | null; last_error_ms: number | null }) =>
  row.last_error !== null && row.last_error_ms !== null
    ? { kind: row.last_error_kind ?? 'unknown', message: row.last_error, at: Number(row.last_error_ms) }
    : null

const errorColumns = (error: ErrorState | null) =>
  [error?.message ?? null, error?.kind ?? null, error?.at ?? null] as const

async function loadMachines(tx: Sql, ids: string[]) {
  const rules = await tx.query<RulesRow>(
    'SELECT id, organization_id, failure_threshold, quorum_percent FROM monitoring.monitors WHERE id = ANY($1)',
    [ids],
  )
  const locations = await tx.query<LocationRow>(
    `SELECT monitor_id, location, status, consecutive_failures, last_error, last_error_kind,
            (extract(epoch FROM last_result_at) * 1000)::float8 AS last_ms,
            (extract(epoch FROM last_error_at) * 1000)::float8 AS last_error_ms
       FROM monitoring.monitor_location_state WHERE monitor_id = ANY($1)`,
    [ids],
  )
  const states = await tx.query<StateRow>(
    `SELECT monitor_id, status, consecutive_failures, certificate,
            (extract(epoch FROM changed_at) * 1000)::float8 AS changed_ms,
            (extract(epoch FROM last_check_at) * 1000)::float8 AS last_check_ms
       FROM monitoring.monitor_state WHERE monitor_id = ANY($1)`,
    [ids],
  )
  const machines = new Map<string, { machine: MonitorMachine; rules: QuorumRules; organizationId: string }>()
  for (const row of rules.rows) {
    machines.set(row.id, {
      machine: { locations: new Map<string, LocationState>(), state: undefined },
      rules: { failureThreshold: row.failure_threshold, quorumPercent: row.quorum_percent },
      organizationId: row.organization_id,
    })
  }
  for (const row of locations.rows) {
    machines.get(row.monitor_id)?.machine.locations.set(row.location, {
      status: row.status,
      consecutiveFailures: row.consecutive_failures,
      lastResultAt: Number(row.last_ms),
      lastError: errorOf(row),
    })
  }
  for (const row of states.rows) {
    const entry = machines.get(row.monitor_id)
    if (!entry) continue
    entry.machine.state = {
      status: row.status,
      changedAt: Number(row.changed_ms),
      lastCheckAt: Number(row.last_check_ms),
      consecutiveFailures: row.consecutive_failures,
      certificate: row.certificate,
    }
  }
  return machines
}

/**
 * Runs the monitor state machine over a batch of results and stores the outcome, staging the
 * events it decided in the same transaction (returns their ids, for the caller to publish). Replicas may
 * hold results of the same monitor at once, so each batch locks its monitors (in one order, so
 * two batches cannot deadlock). Results of monitors that no longer exist are ignored.
 *
 * `newer`, when given, receives the ids of results newer than everything committed for their
 * location before this batch (a location with a committed row only): no earlier transaction saw
 * them, which the ingest uses to skip asking ClickHouse about them (ingest/consume-results.ts).
 */
export async function applyResultsToState(
  sql: Sql,
  results: CheckResult[],
  options: { newer?: Set<string> } = {},
): Promise<string[]> {
  if (results.length === 0) return []
  const ids = [...new Set(results.map((result) => result.monitorId))].sort()
  return sql.transaction(async (tx) => {
    await tx.query(
      `SELECT pg_advisory_xact_lock(h)::text FROM (SELECT hashtext(m) AS h FROM unnest($1::text[]) AS m ORDER BY 1) AS s`,
      [ids],
    )
    const machines = await loadMachines(tx, ids)
    const committed = new Map<string, number>()
    for (const [id, { machine }] of machines) {
      for (const [location, state] of machine.locations) committed.set(`${id}\u0000${location}`, state.lastResultAt)
    }
    const ordered = [...results].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))
    const transitions: DetectedTransition[] = []
    for (const result of ordered) {
      const entry = machines.get(result.monitorId)
      if (!entry) continue
      const last = committed.get(`${result.monitorId}\u0000${result.location}`)
      if (options.newer && last !== undefined && Date.parse(result.startedAt) > last) options.newer.add(result.id)
      const transition = applyResult(entry.machine, result, entry.rules)
      if (transition) transitions.push(detectedTransition(transition, result, entry))
    }
    type ErrorCells = readonly [string | null, string | null, number | null]
    const locationRows: Array<[string, string, string, number, number, ...ErrorCells]> = []
    const stateRows: Array<[string, string, string, number, number, number, string | null]> = []
    for (const [id, { machine, organizationId }] of machines) {
      if (!machine.state) continue
      for (const [location, state] of machine.locations) {
        locationRows.push([
          id,
          location,
          state.status,
          state.consecutiveFailures,
          state.lastResultAt,
          ...errorColumns(state.lastError),
        ])
      }
      const { status, changedAt, lastCheckAt, consecutiveFailures, certificate } = machine.state
      stateRows.push([
        id,
        organizationId,
        status,
        changedAt,
        lastCheckAt,
        consecutiveFailures,
        certificate ? JSON.stringify(certificate) : null,
      ])
    }
    const column = <T>(rows: readonly T[][], index: number) => rows.map((row) => row[index])
    if (locationRows.length > 0) {
      await tx.query(
        `INSERT INTO monitoring.monitor_location_state AS s
           (monitor_id, location, status, consecutive_failures, last_result_at, last_error, last_error_kind,
            last_error_at)
         SELECT m, l, st, f, to_timestamp(t / 1000), e, k, to_timestamp(ea / 1000)
           FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::float8[], $6::text[], $7::text[],
                       $8::float8[]) AS u(m, l, st, f, t, e, k, ea)
         ON CONFLICT (monitor_id, location) DO UPDATE
           SET status = excluded.status, consecutive_failures = excluded.consecutive_failures,
               last_result_at = excluded.last_result_at, last_error = excluded.last_error,
               last_error_kind = excluded.last_error_kind, last_error_at = excluded.last_error_at`,
        [0, 1, 2, 3, 4, 5, 6, 7].map((index) => column(locationRows, index)),
      )
    }
    if (stateRows.length > 0) {
      await tx.query(
        `INSERT INTO monitoring.monitor_state AS s
           (monitor_id, organization_id, status, changed_at, last_check_at, consecutive_failures, certificate)
         SELECT m, o, st, to_timestamp(c / 1000), to_timestamp(l / 1000), f, cert::jsonb
           FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[], $6::int[], $7::text[])
             AS u(m, o, st, c, l, f, cert)
         ON CONFLICT (monitor_id) DO UPDATE
           SET status = excluded.status, changed_at = excluded.changed_at, last_check_at = excluded.last_check_at,
               consecutive_failures = excluded.consecutive_failures, certificate = excluded.certificate`,
        [0, 1, 2, 3, 4, 5, 6].map((index) => column(stateRows, index)),
      )
    }
    const certificates = [...machines].flatMap(([monitorId, { machine, organizationId }]) =>
      machine.state?.certificate
        ? [{ monitorId, organizationId, certificate: machine.state.certificate, at: machine.state.lastCheckAt }]
        : [],
    )
    return stageMonitorEvents(tx, transitions, certificates)
  })
}
