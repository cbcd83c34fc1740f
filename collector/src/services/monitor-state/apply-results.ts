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

/** A monitor's rules, state and locations, read in one statement (locations as a JSON array). */
interface MachineRow {
  id: string
  organization_id: string
  failure_threshold: number
  quorum_percent: number
  status: 'up' | 'down' | null
  changed_ms: number | null
  last_check_ms: number | null
  consecutive_failures: number | null
  certificate: CertificateState | null
  /** [location, status, consecutive failures, last result ms, last error, its kind, its ms] */
  locations: Array<[string, string, number, number, string | null, string | null, number | null]> | null
}

const errorOf = (message: string | null, kind: string | null, at: number | null): ErrorState | null =>
  message !== null && at !== null ? { kind: kind ?? 'unknown', message, at: Number(at) } : null

const errorColumns = (error: ErrorState | null) =>
  [error?.message ?? null, error?.kind ?? null, error?.at ?? null] as const

interface Loaded {
  machine: MonitorMachine
  rules: QuorumRules
  organizationId: string
}

async function loadMachines(tx: Sql, ids: string[]): Promise<Map<string, Loaded>> {
  const { rows } = await tx.query<MachineRow>(
    `SELECT m.id, m.organization_id, m.failure_threshold, m.quorum_percent,
            s.status, s.consecutive_failures, s.certificate,
            (extract(epoch FROM s.changed_at) * 1000)::float8 AS changed_ms,
            (extract(epoch FROM s.last_check_at) * 1000)::float8 AS last_check_ms,
            (SELECT json_agg(json_build_array(l.location, l.status, l.consecutive_failures,
                                              (extract(epoch FROM l.last_result_at) * 1000)::float8,
                                              l.last_error, l.last_error_kind,
                                              (extract(epoch FROM l.last_error_at) * 1000)::float8))
               FROM monitoring.monitor_location_state l WHERE l.monitor_id = m.id) AS locations
       FROM monitoring.monitors m
       LEFT JOIN monitoring.monitor_state s ON s.monitor_id = m.id
      WHERE m.id = ANY($1)`,
    [ids],
  )
  const machines = new Map<string, Loaded>()
  for (const row of rows) {
    const locations = new Map<string, LocationState>()
    for (const [location, status, failures, lastMs, error, errorKind, errorMs] of row.locations ?? []) {
      locations.set(location, {
        status,
        consecutiveFailures: failures,
        lastResultAt: Number(lastMs),
        lastError: errorOf(error, errorKind, errorMs),
      })
    }
    const state =
      row.status === null
        ? undefined
        : {
            status: row.status,
            changedAt: Number(row.changed_ms),
            lastCheckAt: Number(row.last_check_ms),
            consecutiveFailures: Number(row.consecutive_failures),
            certificate: row.certificate,
          }
    machines.set(row.id, {
      machine: { locations, state },
      rules: { failureThreshold: row.failure_threshold, quorumPercent: row.quorum_percent },
      organizationId: row.organization_id,
    })
  }
  return machines
}

/**
 * Runs the monitor state machine over a batch of results and stores the outcome, staging the
 * events it decided in the same transaction (returns their ids, for the caller to publish). Replicas may
 * hold results of the same monitor at once, so each batch locks its monitors (in one order, so
 * two batches cannot deadlock). Results of monitors that no longer exist are ignored.
 *
 * A batch costs a fixed number of statements whatever its size: the lock, one read of every
 * machine, one write of what changed (locations that took a result, and their monitors' state),
 * then the events. Rows no result changed (a redelivered or late batch) are not written at all.
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
  const ordered = results.map((result) => ({ result, at: Date.parse(result.startedAt) })).sort((a, b) => a.at - b.at)
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
    const transitions: DetectedTransition[] = []
    /** Per monitor, the locations a result changed. */
    const changed = new Map<string, Set<string>>()
    for (const { result, at } of ordered) {
      const entry = machines.get(result.monitorId)
      if (!entry) continue
      const last = committed.get(`${result.monitorId}\u0000${result.location}`)
      if (options.newer && last !== undefined && at > last) options.newer.add(result.id)
      const before = entry.machine.locations.get(result.location)
      const transition = applyResult(entry.machine, result, entry.rules)
      // applyResult replaces a location's state when it takes the result, and leaves it when it ignores it.
      if (entry.machine.locations.get(result.location) !== before) {
        const locations = changed.get(result.monitorId) ?? new Set<string>()
        changed.set(result.monitorId, locations.add(result.location))
      }
      if (transition) transitions.push(detectedTransition(transition, result, entry))
    }
    await writeChanged(tx, machines, changed)
    const certificates = [...machines].flatMap(([monitorId, { machine, organizationId }]) =>
      machine.state?.certificate
        ? [{ monitorId, organizationId, certificate: machine.state.certificate, at: machine.state.lastCheckAt }]
        : [],
    )
    return stageMonitorEvents(tx, transitions, certificates)
  })
}

/** Upserts the changed locations and their monitors' state, in one statement. */
async function writeChanged(tx: Sql, machines: Map<string, Loaded>, changed: Map<string, Set<string>>) {
  if (changed.size === 0) return
  type ErrorCells = readonly [string | null, string | null, number | null]
  const locationRows: Array<[string, string, string, number, number, ...ErrorCells]> = []
  const stateRows: Array<[string, string, string, number, number, number, string | null]> = []
  for (const [id, locations] of changed) {
    const { machine, organizationId } = machines.get(id)!
    if (!machine.state) continue
    for (const location of locations) {
      const state = machine.locations.get(location)!
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
  if (stateRows.length === 0) return
  const column = <T>(rows: readonly T[][], index: number) => rows.map((row) => row[index])
  await tx.query(
    `WITH locations AS (
       INSERT INTO monitoring.monitor_location_state AS s
         (monitor_id, location, status, consecutive_failures, last_result_at, last_error, last_error_kind,
          last_error_at)
       SELECT m, l, st, f, to_timestamp(t / 1000), e, k, to_timestamp(ea / 1000)
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::float8[], $6::text[], $7::text[],
                     $8::float8[]) AS u(m, l, st, f, t, e, k, ea)
       ON CONFLICT (monitor_id, location) DO UPDATE
         SET status = excluded.status, consecutive_failures = excluded.consecutive_failures,
             last_result_at = excluded.last_result_at, last_error = excluded.last_error,
             last_error_kind = excluded.last_error_kind, last_error_at = excluded.last_error_at
     )
     INSERT INTO monitoring.monitor_state AS s
       (monitor_id, organization_id, status, changed_at, last_check_at, consecutive_failures, certificate)
     SELECT m, o, st, to_timestamp(c / 1000), to_timestamp(l / 1000), f, cert::jsonb
       FROM unnest($9::text[], $10::text[], $11::text[], $12::float8[], $13::float8[], $14::int[], $15::text[])
         AS u(m, o, st, c, l, f, cert)
     ON CONFLICT (monitor_id) DO UPDATE
       SET status = excluded.status, changed_at = excluded.changed_at, last_check_at = excluded.last_check_at,
           consecutive_failures = excluded.consecutive_failures, certificate = excluded.certificate`,
    [
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((index) => column(locationRows, index)),
      ...[0, 1, 2, 3, 4, 5, 6].map((index) => column(stateRows, index)),
    ],
  )
}
