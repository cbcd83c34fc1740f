import type { Sql } from '@guard/shared'
import { toWindowAggregate, type WindowAggregate } from '../results/window.ts'

export interface LastDay extends WindowAggregate {
  /** The same figures per probe location. */
  locations: Map<string, { checks: number; failures: number; rt_sum: number }>
}

const emptyAggregate = (id: string): WindowAggregate => ({
  monitor_id: id,
  checks: 0,
  failures: 0,
  rt_sum: 0,
  rt_min: 0,
  rt_max: 0,
  p95: 0,
})

/** Each monitor's last 24 hours, from the copy the refresher keeps (services/summaries/refresh.ts). */
export async function readLastDay(sql: Sql, ids: string[]): Promise<Map<string, LastDay>> {
  const byMonitor = new Map<string, LastDay>()
  if (ids.length === 0) return byMonitor
  const { rows } = await sql.query<{
    monitor_id: string
    location: string
    checks: number
    failures: number
    rt_sum: number
  }>(
    'SELECT monitor_id, location, checks, failures, rt_sum FROM monitoring.monitor_summary WHERE monitor_id = ANY($1)',
    [ids],
  )
  for (const row of rows) {
    const entry = byMonitor.get(row.monitor_id) ?? { ...emptyAggregate(row.monitor_id), locations: new Map() }
    entry.checks += row.checks
    entry.failures += row.failures
    entry.rt_sum += row.rt_sum
    entry.locations.set(row.location, { checks: row.checks, failures: row.failures, rt_sum: row.rt_sum })
    byMonitor.set(row.monitor_id, entry)
  }
  return byMonitor
}

/**
 * Each monitor's figures over the last `days` UTC days, today included, from the daily copy. The p95
 * is the checks-weighted mean of the days' p95s: percentiles do not add up, and this stays within
 * the spread of the daily values.
 */
export async function readDays(sql: Sql, ids: string[], days: number): Promise<Map<string, WindowAggregate>> {
  if (ids.length === 0) return new Map()
  const { rows } = await sql.query<{
    monitor_id: string
    checks: string
    failures: string
    rt_sum: number
    rt_min: number
    rt_max: number
    p95: number | null
  }>(
    `SELECT monitor_id, sum(checks) AS checks, sum(failures) AS failures, sum(rt_sum) AS rt_sum,
            min(rt_min) AS rt_min, max(rt_max) AS rt_max, sum(p95 * checks) / nullif(sum(checks), 0) AS p95
       FROM monitoring.monitor_daily
      WHERE monitor_id = ANY($1) AND day > (now() AT TIME ZONE 'UTC')::date - $2::int
      GROUP BY monitor_id`,
    [ids, days],
  )
  return new Map(rows.map((row) => [row.monitor_id, toWindowAggregate(row)]))
}

/** Checks and failures per monitor and UTC day (`YYYY-MM-DD`) over the last `days` days, for status pages. */
export async function readDailyUptime(
  sql: Sql,
  ids: string[],
  days: number,
): Promise<Map<string, Map<string, { checks: number; failures: number }>>> {
  const byMonitor = new Map<string, Map<string, { checks: number; failures: number }>>()
  if (ids.length === 0) return byMonitor
  const { rows } = await sql.query<{ monitor_id: string; day: string; checks: string; failures: string }>(
    `SELECT monitor_id, to_char(day, 'YYYY-MM-DD') AS day, sum(checks) AS checks, sum(failures) AS failures
       FROM monitoring.monitor_daily
      WHERE monitor_id = ANY($1) AND day > (now() AT TIME ZONE 'UTC')::date - $2::int
      GROUP BY monitor_id, day`,
    [ids, days],
  )
  for (const row of rows) {
    const entry = byMonitor.get(row.monitor_id) ?? new Map()
    entry.set(row.day, { checks: Number(row.checks), failures: Number(row.failures) })
    byMonitor.set(row.monitor_id, entry)
  }
  return byMonitor
}
