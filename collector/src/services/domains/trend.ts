import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { isoFromMillis, selectRows } from '../results/query.ts'
import { round2 } from '../results/window.ts'
import { rangeSeconds, type TimeRange } from './schemas.ts'

/** Points per range: a minute for 1h, a quarter hour for 24h, an hour for 7d, six hours for 30d. */
const buckets: Record<TimeRange, { table: string; step: number }> = {
  '1h': { table: 'check_results_1m', step: 60 },
  '24h': { table: 'check_results_1m', step: 900 },
  '7d': { table: 'check_results_1h', step: 3600 },
  '30d': { table: 'check_results_1h', step: 21_600 },
}

interface TrendRow {
  monitor_id: string
  ts: number
  checks: number
  rt_sum: number
  rt_min: number
  rt_max: number
}

/** The response-time trend of every domain of the organization, from the rollups. */
export async function responseTimeTrend(
  ctx: CollectorContext,
  caller: Caller,
  query: { range: TimeRange; organization?: string | undefined },
) {
  const organizationId = organizationScope(caller, query.organization)
  const { rows: domains } = await ctx.sql.query<{ id: string; name: string }>(
    'SELECT id, name FROM monitoring.domains WHERE organization_id = $1 ORDER BY created_at, id',
    [organizationId],
  )
  if (domains.length === 0) return []
  const { table, step } = buckets[query.range]
  const rows = await selectRows<TrendRow>(
    ctx.timeseries,
    `SELECT monitor_id, toUnixTimestamp(toStartOfInterval(bucket, toIntervalSecond({step:UInt32}))) * 1000 AS ts,
            sum(checks) AS checks, sum(rt_sum) AS rt_sum, min(rt_min) AS rt_min, max(rt_max) AS rt_max
       FROM ${table}
      WHERE organization_id = {org:String} AND monitor_id IN {ids:Array(String)}
        AND bucket >= now() - toIntervalSecond({window:UInt32})
      GROUP BY monitor_id, ts ORDER BY monitor_id, ts`,
    { org: organizationId, ids: domains.map((d) => d.id), step, window: rangeSeconds[query.range] },
  )
  const byDomain = new Map<string, TrendRow[]>()
  for (const row of rows) {
    const points = byDomain.get(row.monitor_id) ?? []
    points.push(row)
    byDomain.set(row.monitor_id, points)
  }
  return domains.map((domain) => {
    const points = byDomain.get(domain.id) ?? []
    const checks = points.reduce((sum, p) => sum + Number(p.checks), 0)
    const total = points.reduce((sum, p) => sum + Number(p.rt_sum), 0)
    return {
      domainId: domain.id,
      domainName: domain.name,
      avgResponseTime: checks ? round2(total / checks) : 0,
      minResponseTime: points.length ? round2(Math.min(...points.map((p) => Number(p.rt_min)))) : 0,
      maxResponseTime: points.length ? round2(Math.max(...points.map((p) => Number(p.rt_max)))) : 0,
      dataPoints: points.map((p) => ({
        timestamp: isoFromMillis(p.ts),
        responseTime: round2(Number(p.rt_sum) / Number(p.checks)),
      })),
    }
  })
}
