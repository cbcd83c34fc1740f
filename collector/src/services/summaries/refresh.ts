import type { CheckResult, Sql, TimeSeriesStore } from '@guard/shared'
import { z } from 'zod'
import { selectRows } from '../results/query.ts'
import { recomputeOrganizationSummaries } from './organization.ts'

const DAY_MS = 86_400_000
/** How far back the daily copy reaches: the longest period a read adds up (stats, status pages). */
export const DAILY_DAYS = 90

/** Which monitors to recompute, and from which UTC day on their daily rows may have changed. */
export const summaryScope = z.union([
  z.object({ every: z.literal(true), sinceDay: z.iso.date() }),
  z.object({
    every: z.literal(false),
    monitors: z.array(z.object({ id: z.string().min(1), organizationId: z.string().min(1) })).min(1),
    sinceDay: z.iso.date(),
  }),
])
export type SummaryScope = z.infer<typeof summaryScope>

export const utcDay = (millis: number) => new Date(millis).toISOString().slice(0, 10)

/** The scope a batch of results dirties: their monitors, back to the oldest result's day (late ones included). */
export function scopeOfResults(results: CheckResult[]): SummaryScope | undefined {
  if (results.length === 0) return undefined
  const monitors = new Map<string, string>()
  let oldest = Number.POSITIVE_INFINITY
  for (const result of results) {
    monitors.set(result.monitorId, result.organizationId)
    oldest = Math.min(oldest, Date.parse(result.startedAt))
  }
  return {
    every: false,
    monitors: [...monitors].map(([id, organizationId]) => ({ id, organizationId })),
    sinceDay: utcDay(Math.max(oldest, Date.now() - (DAILY_DAYS - 1) * DAY_MS)),
  }
}

/** Two scopes as one: the union of their monitors, from the earlier day. */
export function mergeScopes(a: SummaryScope | undefined, b: SummaryScope): SummaryScope {
  if (!a) return b
  const sinceDay = a.sinceDay < b.sinceDay ? a.sinceDay : b.sinceDay
  if (a.every || b.every) return { every: true, sinceDay }
  const monitors = new Map([...a.monitors, ...b.monitors].map((monitor) => [monitor.id, monitor]))
  return { every: false, monitors: [...monitors.values()], sinceDay }
}

interface WindowRow {
  monitor_id: string
  location: string
  checks: string
  failures: string
  rt_sum: number
}

interface DailyRow extends WindowRow {
  day: string
  rt_min: number
  rt_max: number
  p95: number
}

function filterOf(scope: SummaryScope) {
  if (scope.every) return { where: '1', params: {} }
  return {
    where: 'organization_id IN {orgs:Array(String)} AND monitor_id IN {ids:Array(String)}',
    params: {
      orgs: [...new Set(scope.monitors.map((monitor) => monitor.organizationId))],
      ids: scope.monitors.map((monitor) => monitor.id),
    },
  }
}

/**
 * The last 24 hours to the minute: per-minute rollups for the oldest partial hour, per-hour rollups
 * for the rest, so a refresh of every monitor reads at most 84 rows per monitor and location.
 */
function lastDay(timeseries: TimeSeriesStore, scope: SummaryScope) {
  const { where, params } = filterOf(scope)
  return selectRows<WindowRow>(
    timeseries,
    `SELECT monitor_id, location, sum(checks) AS checks, sum(failures) AS failures, sum(rt_sum) AS rt_sum
       FROM (SELECT monitor_id, location, checks, failures, rt_sum FROM check_results_1m
              WHERE ${where} AND bucket >= toStartOfMinute(now() - INTERVAL 24 HOUR)
                AND bucket < toStartOfHour(now() - INTERVAL 23 HOUR)
             UNION ALL
             SELECT monitor_id, location, checks, failures, rt_sum FROM check_results_1h
              WHERE ${where} AND bucket >= toStartOfHour(now() - INTERVAL 23 HOUR))
      GROUP BY monitor_id, location`,
    params,
  )
}

function days(timeseries: TimeSeriesStore, scope: SummaryScope) {
  const { where, params } = filterOf(scope)
  return selectRows<DailyRow>(
    timeseries,
    `SELECT monitor_id, location, toString(toDate(bucket)) AS day, sum(checks) AS checks, sum(failures) AS failures,
            sum(rt_sum) AS rt_sum, min(rt_min) AS rt_min, max(rt_max) AS rt_max,
            quantilesTDigestMerge(0.5, 0.95, 0.99)(rt_quantiles)[2] AS p95
       FROM check_results_1h
      WHERE ${where} AND bucket >= toDateTime({since:Date})
      GROUP BY monitor_id, location, day`,
    { ...params, since: scope.sinceDay },
  )
}

/** Rows of monitors deleted meanwhile are skipped (the join), so the copy never outlives its monitor. */
async function writeCopies(sql: Sql, scope: SummaryScope, window: WindowRow[], daily: DailyRow[]) {
  const ids = scope.every ? null : scope.monitors.map((monitor) => monitor.id)
  await sql.transaction(async (tx) => {
    await tx.query('DELETE FROM monitoring.monitor_summary WHERE $1::text[] IS NULL OR monitor_id = ANY($1)', [ids])
    if (window.length > 0) {
      await tx.query(
        `INSERT INTO monitoring.monitor_summary (monitor_id, location, checks, failures, rt_sum, refreshed_at)
         SELECT u.m, u.l, u.c, u.f, u.s, now()
           FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::float8[]) AS u(m, l, c, f, s)
           JOIN monitoring.monitors m ON m.id = u.m`,
        [
          window.map((row) => row.monitor_id),
          window.map((row) => row.location),
          window.map((row) => Number(row.checks)),
          window.map((row) => Number(row.failures)),
          window.map((row) => Number(row.rt_sum)),
        ],
      )
    }
    await tx.query(
      'DELETE FROM monitoring.monitor_daily WHERE ($1::text[] IS NULL OR monitor_id = ANY($1)) AND day >= $2::date',
      [ids, scope.sinceDay],
    )
    if (daily.length > 0) {
      await tx.query(
        `INSERT INTO monitoring.monitor_daily (monitor_id, day, location, checks, failures, rt_sum, rt_min, rt_max, p95)
         SELECT u.m, u.d, u.l, u.c, u.f, u.s, u.mn, u.mx, u.p
           FROM unnest($1::text[], $2::date[], $3::text[], $4::int[], $5::int[], $6::float8[], $7::float8[],
                       $8::float8[], $9::float8[]) AS u(m, d, l, c, f, s, mn, mx, p)
           JOIN monitoring.monitors m ON m.id = u.m`,
        [
          daily.map((row) => row.monitor_id),
          daily.map((row) => row.day),
          daily.map((row) => row.location),
          daily.map((row) => Number(row.checks)),
          daily.map((row) => Number(row.failures)),
          daily.map((row) => Number(row.rt_sum)),
          daily.map((row) => Number(row.rt_min)),
          daily.map((row) => Number(row.rt_max)),
          daily.map((row) => (Number.isFinite(Number(row.p95)) ? Number(row.p95) : 0)),
        ],
      )
    }
    await recomputeOrganizationSummaries(
      tx,
      scope.every ? null : [...new Set(scope.monitors.map((monitor) => monitor.organizationId))],
    )
  })
}

/**
 * Recomputes the PostgreSQL copies of the rollups (monitoring.monitor_summary: last 24 hours;
 * monitoring.monitor_daily: one row per UTC day) for `scope` from ClickHouse. A recomputation, never an
 * increment: ClickHouse's rollups hold each result once, so the copies do too, however often a
 * result was delivered, however late it came, and whichever replica refreshes.
 */
export async function refreshMonitorSummaries({
  sql,
  timeseries,
  input,
}: {
  sql: Sql
  timeseries: TimeSeriesStore
  input: SummaryScope
}): Promise<void> {
  const scope = summaryScope.parse(input)
  const [window, daily] = await Promise.all([lastDay(timeseries, scope), days(timeseries, scope)])
  await writeCopies(sql, scope, window, daily)
}
