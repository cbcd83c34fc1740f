import type { CollectorContext } from '../../context.ts'
import { MONITOR_COLUMNS, type MonitorRow, toMonitorRecord } from './find.ts'
import { scheduleMonitor } from './schedule.ts'
import { monitorKind } from './schemas.ts'

/**
 * PostgreSQL is the source of truth for schedules: at start, every monitor is published again and
 * keys without one are removed, which mends a write that reached one store but not the other.
 */
export async function syncSchedules(ctx: CollectorContext): Promise<number> {
  const { rows } = await ctx.sql.query<MonitorRow & { credentials: string | null }>(
    `SELECT ${MONITOR_COLUMNS}, credentials FROM monitoring.monitors WHERE kind = ANY($1)`,
    // Only the kinds probes check; heartbeats are decided by pings and deadlines.
    [monitorKind.options],
  )
  for (const row of rows) await scheduleMonitor(ctx, toMonitorRecord(row), row.credentials)
  const known = new Set(rows.map((row) => row.id))
  for (const key of await ctx.monitors.keys()) {
    if (!known.has(key)) await ctx.monitors.delete(key)
  }
  return known.size
}
