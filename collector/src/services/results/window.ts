import type { TimeSeriesStore } from '@guard/shared'
import { selectRows } from './query.ts'

/**
 * Which table answers a window: raw results up to a day, per-minute rollups up to a week, per-hour
 * rollups beyond. Rollups hold only deduplicated results (see migrations/clickhouse/002_rollups.sql),
 * so they need no FINAL; raw reads keep FINAL so a redelivered row is never counted twice. Every
 * source skips failures from a degraded probe (`probe_degraded`; rollups from 070), as the state
 * machine does.
 */
export type Source = 'raw' | 'minute' | 'hour'
export const sourceFor = (seconds: number): Source =>
  seconds <= 86_400 ? 'raw' : seconds <= 7 * 86_400 ? 'minute' : 'hour'

export interface WindowAggregate {
  monitor_id: string
  checks: number
  failures: number
  rt_sum: number
  rt_min: number
  rt_max: number
  p95: number
}

/** The p95 is the costly part (t-digest states to merge), so only callers that show it ask for it. */
function aggregateSql(source: Source, percentile: boolean): string {
  if (source === 'raw') {
    return `SELECT monitor_id, count() AS checks, countIf(status = 'down') AS failures,
                   sum(response_time_ms) AS rt_sum, min(response_time_ms) AS rt_min, max(response_time_ms) AS rt_max,
                   ${percentile ? 'quantileTDigest(0.95)(response_time_ms)' : '0'} AS p95
              FROM check_results FINAL
             WHERE organization_id IN {orgs:Array(String)} AND monitor_id IN {ids:Array(String)}
               AND started_at >= now64(3) - toIntervalSecond({window:UInt32})
               AND NOT (probe_degraded = 1 AND status <> 'up')
             GROUP BY monitor_id`
  }
  const table = source === 'minute' ? 'check_results_1m' : 'check_results_1h'
  return `SELECT monitor_id, sum(checks) AS checks, sum(failures) AS failures,
                 sum(rt_sum) AS rt_sum, min(rt_min) AS rt_min, max(rt_max) AS rt_max,
                 ${percentile ? 'quantilesTDigestMerge(0.5, 0.95, 0.99)(rt_quantiles)[2]' : '0'} AS p95
            FROM ${table}
           WHERE organization_id IN {orgs:Array(String)} AND monitor_id IN {ids:Array(String)}
             AND bucket >= toStartOfInterval(now() - toIntervalSecond({window:UInt32}), INTERVAL ${source === 'minute' ? '1 MINUTE' : '1 HOUR'})
           GROUP BY monitor_id`
}

/** Counters and response-time figures per monitor over the last `seconds`. */
export async function aggregateWindow(
  timeseries: TimeSeriesStore,
  organizationIds: string[],
  ids: string[],
  seconds: number,
  options: { source?: Source; percentile?: boolean } = {},
): Promise<Map<string, WindowAggregate>> {
  if (ids.length === 0) return new Map()
  const sql = aggregateSql(options.source ?? sourceFor(seconds), options.percentile ?? false)
  const rows = await selectRows<WindowAggregate>(timeseries, sql, { orgs: organizationIds, ids, window: seconds })
  return new Map(rows.map((row) => [row.monitor_id, toWindowAggregate(row)]))
}

/** A row of sums as a store returns it: counts may come as strings, an absent p95 as null (both read as numbers, null as 0). */
export const toWindowAggregate = (
  row: { monitor_id: string } & Record<Exclude<keyof WindowAggregate, 'monitor_id'>, number | string | null>,
): WindowAggregate => ({
  monitor_id: row.monitor_id,
  checks: Number(row.checks),
  failures: Number(row.failures),
  rt_sum: Number(row.rt_sum),
  rt_min: Number(row.rt_min),
  rt_max: Number(row.rt_max),
  p95: Number(row.p95),
})

export const round2 = (value: number) => Math.round(value * 100) / 100
/** Null without a check in the window: 0 % would read as an outage and 0 ms as a fast answer. */
export const uptimeOf = (aggregate: WindowAggregate | undefined): number | null =>
  !aggregate || aggregate.checks === 0
    ? null
    : round2(((aggregate.checks - aggregate.failures) / aggregate.checks) * 100)
export const averageOf = (aggregate: WindowAggregate | undefined): number | null =>
  !aggregate || aggregate.checks === 0 ? null : round2(aggregate.rt_sum / aggregate.checks)
