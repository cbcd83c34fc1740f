import type { CheckResult } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { heartbeatResult, publishHeartbeatResults, resultTime } from './results.ts'
import { type HeartbeatSchedule, nextExpected } from './schedule.ts'

interface DueRow {
  monitor_id: string
  organization_id: string
  every_seconds: number | null
  cron: string | null
  timezone: string
  grace_seconds: number
  max_duration_seconds: number | null
  open_runs: Record<string, number>
  next_due_ms: number
  last_result_ms: number | null
}

/** Most heartbeats one tick handles; the rest wait for the next tick rather than one long transaction. */
const MAX_PER_TICK = 5000

/**
 * One tick of the deadline job: heartbeats whose expected ping plus grace has passed get a `missed`
 * result, and runs started longer ago than the maximum duration a `too_long` one. Each result is
 * published (id derived from the deadline or the run, so a repeat is dropped by the bus) before the
 * heartbeat's next deadline is moved on, in the same transaction; a failed publish leaves the row as
 * it was for the next tick. Disabled heartbeats expect nothing. Returns the results published.
 */
export async function detectHeartbeatDeadlines(
  ctx: Pick<CollectorContext, 'sql' | 'bus'>,
  now: Date = new Date(),
): Promise<CheckResult[]> {
  return ctx.sql.transaction(async (tx) => {
    const { rows } = await tx.query<DueRow>(
      `SELECT h.monitor_id, m.organization_id, h.every_seconds, h.cron, h.timezone, h.grace_seconds,
              h.max_duration_seconds, h.open_runs,
              (extract(epoch FROM h.next_due_at) * 1000)::float8 AS next_due_ms,
              (extract(epoch FROM h.last_result_at) * 1000)::float8 AS last_result_ms
         FROM monitoring.heartbeats h JOIN monitoring.monitors m ON m.id = h.monitor_id
        WHERE m.enabled
          AND (h.next_due_at + make_interval(secs => h.grace_seconds) <= $1
               OR (h.max_duration_seconds IS NOT NULL AND h.open_runs <> '{}'::jsonb))
        ORDER BY h.monitor_id LIMIT ${MAX_PER_TICK}
        FOR UPDATE OF h SKIP LOCKED`,
      [now],
    )
    const results: CheckResult[] = []
    const updates: Array<{ m: string; d: number; o: Record<string, number>; r: number | null }> = []
    for (const row of rows) {
      let lastResult = row.last_result_ms
      let nextDue = row.next_due_ms
      let openRuns = row.open_runs
      const base = { monitorId: row.monitor_id, organizationId: row.organization_id, up: false }
      if (row.max_duration_seconds !== null) {
        const limit = row.max_duration_seconds * 1000
        for (const [rid, started] of Object.entries(row.open_runs)) {
          if (started + limit > now.getTime()) continue
          lastResult = resultTime(started + limit, lastResult)
          results.push(
            heartbeatResult({
              ...base,
              id: `too_long:${row.monitor_id}:${rid}:${started}`,
              at: lastResult,
              durationMs: now.getTime() - started,
              errorKind: 'too_long',
              error: `A run started at ${new Date(started).toISOString()}${rid ? ` (rid ${rid})` : ''} did not end within ${row.max_duration_seconds} s`,
            }),
          )
          const { [rid]: _late, ...rest } = openRuns
          openRuns = rest
        }
      }
      const deadline = row.next_due_ms + row.grace_seconds * 1000
      if (deadline <= now.getTime()) {
        lastResult = resultTime(deadline, lastResult)
        results.push(
          heartbeatResult({
            ...base,
            id: `missed:${row.monitor_id}:${row.next_due_ms}`,
            at: lastResult,
            errorKind: 'missed',
            error: `No ping by ${new Date(deadline).toISOString()} (expected at ${new Date(row.next_due_ms).toISOString()}, grace ${row.grace_seconds} s)`,
          }),
        )
        const schedule: HeartbeatSchedule =
          row.cron !== null ? { cron: row.cron, timezone: row.timezone } : { every: row.every_seconds! }
        // The next window from now: one missed result per window that passes without a ping.
        nextDue = nextExpected(schedule, now).getTime()
      }
      if (nextDue !== row.next_due_ms || openRuns !== row.open_runs) {
        updates.push({ m: row.monitor_id, d: nextDue, o: openRuns, r: lastResult })
      }
    }
    if (results.length === 0) return []
    await publishHeartbeatResults(ctx, results)
    await tx.query(
      `UPDATE monitoring.heartbeats h
          SET next_due_at = to_timestamp(u.d / 1000), open_runs = u.o, last_result_at = to_timestamp(u.r / 1000)
         FROM json_to_recordset($1::json) AS u(m text, d float8, o jsonb, r float8)
        WHERE h.monitor_id = u.m`,
      [JSON.stringify(updates)],
    )
    return results
  })
}
