import type { CheckResult, HeartbeatPing, Sql } from '@guard/shared'
import { heartbeatResult, resultTime } from './results.ts'
import { type HeartbeatSchedule, nextExpected } from './schedule.ts'

interface StateRow {
  monitor_id: string
  enabled: boolean
  every_seconds: number | null
  cron: string | null
  timezone: string
  open_runs: Record<string, number>
  last_ping_ms: number | null
  last_result_ms: number | null
  next_due_at: Date
}

export interface AppliedPings {
  /** What the pings decided, for the results stream. */
  results: CheckResult[]
  /** Every ping still applicable (its heartbeat exists), with its run's duration when it ended one. */
  stored: Array<{ ping: HeartbeatPing; durationMs: number | undefined }>
}

function outcomeOf(ping: HeartbeatPing): Pick<Parameters<typeof heartbeatResult>[0], 'up' | 'errorKind' | 'error'> {
  if (ping.type === 'fail') return { up: false, errorKind: 'failed', error: 'The job reported a failure' }
  if (ping.type === 'exit' && ping.exitCode !== 0) {
    return { up: false, errorKind: 'exit_code', error: `The job exited with code ${ping.exitCode}` }
  }
  return { up: true }
}

/**
 * Applies a batch of pings to their heartbeats' run state, under a row lock per heartbeat, and
 * returns the results they decide. `run` receives them while the locks are held and before the
 * commit (the consumer publishes and stores there), so a crash before the commit redelivers pings
 * whose state is unchanged and which decide the same results again, with the same ids.
 *
 * A start opens a run (per `rid`); an end (success, fail, exit code) closes it with its duration,
 * expects the next run from its time and gives a result. Pings older than the newest one applied
 * change no state (a redelivery after the commit was applied already). A disabled heartbeat keeps
 * its pings in the log but decides nothing.
 */
export async function applyPings(
  sql: Sql,
  pings: HeartbeatPing[],
  run: (applied: AppliedPings) => Promise<void>,
): Promise<AppliedPings> {
  const ids = [...new Set(pings.map((ping) => ping.monitorId))].sort()
  return sql.transaction(async (tx) => {
    const { rows } = await tx.query<StateRow>(
      `SELECT h.monitor_id, m.enabled, h.every_seconds, h.cron, h.timezone, h.open_runs, h.next_due_at,
              (extract(epoch FROM h.last_ping_at) * 1000)::float8 AS last_ping_ms,
              (extract(epoch FROM h.last_result_at) * 1000)::float8 AS last_result_ms
         FROM monitoring.heartbeats h JOIN monitoring.monitors m ON m.id = h.monitor_id
        WHERE h.monitor_id = ANY($1) ORDER BY h.monitor_id FOR UPDATE OF h`,
      [ids],
    )
    const states = new Map(rows.map((row) => [row.monitor_id, { ...row, changed: false }]))
    const applied: AppliedPings = { results: [], stored: [] }
    // Parsed once each: a comparator parsing both dates made the sort the batch's largest cost.
    const ordered = pings.map((ping) => ({ ping, at: Date.parse(ping.receivedAt) })).sort((a, b) => a.at - b.at)
    for (const { ping, at } of ordered) {
      const state = states.get(ping.monitorId)
      if (!state) continue
      // Older than what the state holds: a redelivery (the log's insert drops it then), or a ping
      // another replica's clock dated a little earlier. Either way it goes in the log and changes
      // no state.
      if (state.last_ping_ms !== null && at < state.last_ping_ms) {
        applied.stored.push({ ping, durationMs: undefined })
        continue
      }
      state.changed = true
      state.last_ping_ms = at
      const rid = ping.rid ?? ''
      if (ping.type === 'start') {
        state.open_runs = { ...state.open_runs, [rid]: at }
        applied.stored.push({ ping, durationMs: undefined })
        continue
      }
      const started = state.open_runs[rid]
      const durationMs = started !== undefined && started <= at ? at - started : undefined
      if (started !== undefined) {
        const { [rid]: _ended, ...open } = state.open_runs
        state.open_runs = open
      }
      applied.stored.push({ ping, durationMs })
      if (!state.enabled) continue
      const schedule: HeartbeatSchedule =
        state.cron !== null ? { cron: state.cron, timezone: state.timezone } : { every: state.every_seconds! }
      state.next_due_at = nextExpected(schedule, new Date(at))
      const resultAt = resultTime(at, state.last_result_ms)
      state.last_result_ms = resultAt
      applied.results.push(
        heartbeatResult({
          id: `ping:${ping.id}`,
          monitorId: ping.monitorId,
          organizationId: ping.organizationId,
          at: resultAt,
          durationMs,
          ...outcomeOf(ping),
        }),
      )
    }
    await run(applied)
    const changed = [...states.values()].filter((state) => state.changed)
    if (changed.length > 0) {
      const last = new Map(ordered.map(({ ping }) => [ping.monitorId, ping.type]))
      await tx.query(
        `UPDATE monitoring.heartbeats h
            SET open_runs = u.o, next_due_at = to_timestamp(u.d / 1000), last_ping_at = to_timestamp(u.p / 1000),
                last_ping_type = u.t, last_result_at = to_timestamp(u.r / 1000)
           FROM json_to_recordset($1::json) AS u(m text, o jsonb, d float8, p float8, t text, r float8)
          WHERE h.monitor_id = u.m`,
        [
          JSON.stringify(
            changed.map((state) => ({
              m: state.monitor_id,
              o: state.open_runs,
              d: new Date(state.next_due_at).getTime(),
              p: state.last_ping_ms,
              t: last.get(state.monitor_id),
              r: state.last_result_ms,
            })),
          ),
        ],
      )
    }
    return applied
  })
}
