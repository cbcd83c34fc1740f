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

/**
 * A monitor's rules, state and locations, as one element of the JSON array the read returns:
 * [id, organization, failure threshold, quorum percent, status, changed ms, last check ms,
 * consecutive failures, certificate, locations]. One JSON value for the whole batch is parsed once,
 * natively, instead of the driver building and converting a row object per monitor.
 */
type MachineRow = [
  string,
  string,
  number,
  number,
  'up' | 'down' | null,
  number | null,
  number | null,
  number | null,
  CertificateState | null,
  /** [location, status, consecutive failures, last result ms, last error, its kind, its ms] */
  Array<[string, string, number, number, string | null, string | null, number | null]> | null,
]

const errorOf = (message: string | null, kind: string | null, at: number | null): ErrorState | null =>
  message !== null && at !== null ? { kind: kind ?? 'unknown', message, at: Number(at) } : null

/**
 * A lone surrogate (JSON allows one as an escape) would make PostgreSQL refuse the whole JSON
 * parameter; it becomes U+FFFD, as the driver's UTF-8 encoding of a plain text parameter does.
 */
const errorColumns = (error: ErrorState | null) =>
  [error ? error.message.replace(/\p{Cs}/gu, '\uFFFD') : null, error?.kind ?? null, error?.at ?? null] as const

interface Loaded {
  machine: MonitorMachine
  rules: QuorumRules
  organizationId: string
}

/** Sends the read of every machine (see MachineRow); resolves to them by monitor id. */
async function loadMachines(tx: Sql, ids: string[]): Promise<Map<string, Loaded>> {
  const { rows } = await tx.query<{ machines: MachineRow[] | null }>(
    `SELECT json_agg(json_build_array(
              m.id, m.organization_id, m.failure_threshold, m.quorum_percent, s.status,
              (extract(epoch FROM s.changed_at) * 1000)::float8,
              (extract(epoch FROM s.last_check_at) * 1000)::float8,
              s.consecutive_failures, s.certificate,
              (SELECT json_agg(json_build_array(l.location, l.status, l.consecutive_failures,
                                                (extract(epoch FROM l.last_result_at) * 1000)::float8,
                                                l.last_error, l.last_error_kind,
                                                (extract(epoch FROM l.last_error_at) * 1000)::float8))
                 FROM monitoring.monitor_location_state l WHERE l.monitor_id = m.id))) AS machines
       FROM monitoring.monitors m
       LEFT JOIN monitoring.monitor_state s ON s.monitor_id = m.id
      WHERE m.id = ANY($1)`,
    [ids],
  )
  const machines = new Map<string, Loaded>()
  for (const row of rows[0]?.machines ?? []) {
    const [id, organizationId, failureThreshold, quorumPercent, status, changedMs, lastCheckMs, failures, certificate] =
      row
    const locations = new Map<string, LocationState>()
    for (const [location, locationStatus, locationFailures, lastMs, error, errorKind, errorMs] of row[9] ?? []) {
      locations.set(location, {
        status: locationStatus,
        consecutiveFailures: locationFailures,
        lastResultAt: Number(lastMs),
        lastError: errorOf(error, errorKind, errorMs),
      })
    }
    const state =
      status === null
        ? undefined
        : {
            status,
            changedAt: Number(changedMs),
            lastCheckAt: Number(lastCheckMs),
            consecutiveFailures: Number(failures),
            certificate,
          }
    machines.set(id, {
      machine: { locations, state },
      rules: { failureThreshold, quorumPercent },
      organizationId,
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
 * `stateChanged`, when given, receives the organizations of the monitors whose state the batch
 * changed (or gave a first one): only their reads derived from states need invalidating.
 */
export async function applyResultsToState(
  sql: Sql,
  results: CheckResult[],
  options: { newer?: Set<string>; stateChanged?: Set<string> } = {},
): Promise<string[]> {
  if (results.length === 0) return []
  const ids = [...new Set(results.map((result) => result.monitorId))].sort()
  const ordered = results.map((result) => ({ result, at: Date.parse(result.startedAt) })).sort((a, b) => a.at - b.at)
  return sql.transaction(async (tx) => {
    // Sent together, run one after the other: the read starts (and takes its snapshot) once the locks
    // are held, without a turn of the event loop in between.
    const [, machines] = await Promise.all([
      tx.query(
        `SELECT pg_advisory_xact_lock(h)::text FROM (SELECT hashtext(m) AS h FROM unnest($1::text[]) AS m ORDER BY 1) AS s`,
        [ids],
      ),
      loadMachines(tx, ids),
    ])
    const committed = new Map<string, number>()
    for (const [id, { machine }] of machines) {
      for (const [location, state] of machine.locations) committed.set(`${id}\u0000${location}`, state.lastResultAt)
    }
    const statusBefore = new Map([...machines].map(([id, { machine }]) => [id, machine.state?.status]))
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
    for (const [id, { machine, organizationId }] of machines) {
      if (machine.state?.status !== statusBefore.get(id)) options.stateChanged?.add(organizationId)
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

/**
 * Upserts the changed locations and their monitors' state, in one statement. The rows travel as one
 * JSON parameter each (stringified natively) rather than as fifteen arrays the driver would turn
 * into array literals element by element.
 */
async function writeChanged(tx: Sql, machines: Map<string, Loaded>, changed: Map<string, Set<string>>) {
  if (changed.size === 0) return
  const locationRows: unknown[] = []
  const stateRows: unknown[] = []
  for (const [id, locations] of changed) {
    const { machine, organizationId } = machines.get(id)!
    // Locations are stored even while the monitor is unknown (failed, below the threshold, never up),
    // so its next batch counts on from their consecutive failures.
    for (const location of locations) {
      const state = machine.locations.get(location)!
      const [error, errorKind, errorAt] = errorColumns(state.lastError)
      locationRows.push({
        m: id,
        l: location,
        st: state.status,
        f: state.consecutiveFailures,
        t: state.lastResultAt,
        e: error,
        k: errorKind,
        ea: errorAt,
      })
    }
    if (!machine.state) continue
    const { status, changedAt, lastCheckAt, consecutiveFailures, certificate } = machine.state
    stateRows.push({
      m: id,
      o: organizationId,
      st: status,
      c: changedAt,
      l: lastCheckAt,
      f: consecutiveFailures,
      cert: certificate,
    })
  }
  await tx.query(
    `WITH locations AS (
       INSERT INTO monitoring.monitor_location_state AS s
         (monitor_id, location, status, consecutive_failures, last_result_at, last_error, last_error_kind,
          last_error_at)
       SELECT m, l, st, f, to_timestamp(t / 1000), e, k, to_timestamp(ea / 1000)
         FROM json_to_recordset($1::json) AS u(m text, l text, st text, f int, t float8, e text, k text, ea float8)
       ON CONFLICT (monitor_id, location) DO UPDATE
         SET status = excluded.status, consecutive_failures = excluded.consecutive_failures,
             last_result_at = excluded.last_result_at, last_error = excluded.last_error,
             last_error_kind = excluded.last_error_kind, last_error_at = excluded.last_error_at
     )
     INSERT INTO monitoring.monitor_state AS s
       (monitor_id, organization_id, status, changed_at, last_check_at, consecutive_failures, certificate)
     SELECT m, o, st, to_timestamp(c / 1000), to_timestamp(l / 1000), f, cert
       FROM json_to_recordset($2::json) AS u(m text, o text, st text, c float8, l float8, f int, cert jsonb)
     ON CONFLICT (monitor_id) DO UPDATE
       SET status = excluded.status, changed_at = excluded.changed_at, last_check_at = excluded.last_check_at,
           consecutive_failures = excluded.consecutive_failures, certificate = excluded.certificate`,
    [JSON.stringify(locationRows), JSON.stringify(stateRows)],
  )
}
