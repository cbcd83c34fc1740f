import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { periodSeconds, type StatsPeriod, statsPeriod } from '../domains/schemas.ts'
import { isoFromMillis, selectRows } from '../results/query.ts'
import { round2 } from '../results/window.ts'
import { findMonitor } from './find.ts'
import type { MonitorKind } from './schemas.ts'

/**
 * One bucket per step, so every range draws a few hundred points at most and covers the whole
 * range: raw results are capped per location and kept 35 days, the hourly rollup 400.
 */
const steps: Record<StatsPeriod, { table: string; step: number }> = {
  '1h': { table: 'check_results_1m', step: 60 },
  '24h': { table: 'check_results_1m', step: 300 },
  '7d': { table: 'check_results_1h', step: 3600 },
  '30d': { table: 'check_results_1h', step: 6 * 3600 },
  '90d': { table: 'check_results_1h', step: 86_400 },
}

export const latencyInput = z.strictObject({
  id: z.string().max(64),
  range: statsPeriod.default('24h'),
})

const latencyBucket = z.object({
  timestamp: z.string().describe('Start of the bucket'),
  checks: z.number().int(),
  failures: z.number().int().describe('Checks that were down'),
  responseTime: z.number().describe('Average, in milliseconds'),
  minResponseTime: z.number(),
  maxResponseTime: z.number(),
  p95ResponseTime: z.number(),
})
type LatencyBucket = z.infer<typeof latencyBucket>

export const latencySeries = z.object({
  range: statsPeriod,
  step: z
    .number()
    .int()
    .describe('Seconds per bucket: 60 for 1h, 300 for 24h, 3600 for 7d, 21600 for 30d, 86400 for 90d'),
  locations: z.record(z.string(), z.array(latencyBucket)).describe('Buckets per location code, oldest first'),
})

interface BucketRow {
  location: string
  ts: number
  checks: string
  failures: string
  rt_sum: number
  rt_min: number
  rt_max: number
  p95: number
}

/** A monitor's response time per location over the range, oldest bucket first, from the rollups. */
export async function getMonitorLatency({
  ctx,
  caller,
  kind,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  kind: MonitorKind
  input: z.input<typeof latencyInput>
}): Promise<z.infer<typeof latencySeries>> {
  const { id, range } = latencyInput.parse(input)
  const monitor = await findMonitor(ctx.sql, caller, kind, id)
  const { table, step } = steps[range]
  const rows = await selectRows<BucketRow>(
    ctx.timeseries,
    `SELECT location,
            toUnixTimestamp(toStartOfInterval(bucket, toIntervalSecond({step:UInt32}))) * 1000 AS ts,
            sum(checks) AS checks, sum(failures) AS failures, sum(rt_sum) AS rt_sum,
            min(rt_min) AS rt_min, max(rt_max) AS rt_max,
            quantilesTDigestMerge(0.5, 0.95, 0.99)(rt_quantiles)[2] AS p95
       FROM ${table}
      WHERE organization_id = {org:String} AND monitor_id = {id:String}
        AND bucket >= now() - toIntervalSecond({window:UInt32})
      GROUP BY location, ts ORDER BY location, ts`,
    { org: monitor.organizationId, id: monitor.id, step, window: periodSeconds[range] },
  )
  const locations: Record<string, LatencyBucket[]> = {}
  for (const row of rows) {
    const checks = Number(row.checks)
    if (checks === 0) continue
    const buckets = locations[row.location] ?? []
    buckets.push({
      timestamp: isoFromMillis(row.ts),
      checks,
      failures: Number(row.failures),
      responseTime: round2(Number(row.rt_sum) / checks),
      minResponseTime: round2(Number(row.rt_min)),
      maxResponseTime: round2(Number(row.rt_max)),
      p95ResponseTime: round2(Number(row.p95)),
    })
    locations[row.location] = buckets
  }
  return { range, step, locations }
}
