import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { downtimeWithin } from '../monitor-state/incidents.ts'
import { selectRows } from '../results/query.ts'
import { aggregateWindow, averageOf, round2, uptimeOf } from '../results/window.ts'
import { tagCondition } from '../tags/match.ts'
import { tagQuery } from '../tags/schemas.ts'

export const REPORT_RANGES = { '24h': 86_400, '7d': 7 * 86_400, '30d': 30 * 86_400 } as const
export const reportQuery = z.object({
  organizationId: z.string().max(64).optional(),
  range: z.enum(['24h', '7d', '30d']).default('24h'),
  format: z.enum(['json', 'csv']).optional(),
  tag: tagQuery,
})
export type ReportQuery = z.input<typeof reportQuery>

const figures = {
  checks: z.number().int(),
  failures: z.number().int(),
  uptime: z.number().nullable().meta({ description: 'percent of checks up; null without a check' }),
  avgResponseTime: z.number().nullable().meta({ description: 'ms; null without a check' }),
  p95ResponseTime: z.number().nullable().meta({ description: 'ms; null without a check' }),
}
export const domainReportRow = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  ...figures,
  incidents: z.number().int(),
  downtimeSeconds: z.number().int(),
})
export const domainReport = z.object({
  range: z.enum(['24h', '7d', '30d']),
  from: z.string(),
  to: z.string(),
  domains: z.array(domainReportRow.extend({ locations: z.array(z.object({ location: z.string(), ...figures })) })),
  totals: z.object({
    domains: z.number().int(),
    checks: z.number().int(),
    failures: z.number().int(),
    uptime: z.number().nullable(),
    avgResponseTime: z.number().nullable(),
    incidents: z.number().int(),
    downtimeSeconds: z.number().int(),
  }),
})
export type DomainReport = z.infer<typeof domainReport>

/** The rollups answer every range (per minute for 24 h, per hour beyond): cheap for thousands of domains. */
const sourceOf = (range: keyof typeof REPORT_RANGES) => (range === '24h' ? 'minute' : 'hour')

/** Per domain and per probe location: checks, failures, uptime, average and p95 response time, incidents, downtime. */
export async function reportDomains(ctx: CollectorContext, caller: Caller, query: ReportQuery): Promise<DomainReport> {
  const { range, organizationId: requested, tag } = reportQuery.parse(query)
  const organizationId = organizationScope(caller, requested)
  const seconds = REPORT_RANGES[range]
  const tagged = tagCondition('tags', tag, 2)
  const { rows: domains } = await ctx.sql.query<{ id: string; name: string; url: string }>(
    `SELECT id, name, url FROM monitoring.domains WHERE organization_id = $1 AND ${tagged.sql} ORDER BY name, id`,
    [organizationId, ...tagged.parameters],
  )
  const ids = domains.map((domain) => domain.id)
  const source = sourceOf(range)
  const table = source === 'minute' ? 'check_results_1m' : 'check_results_1h'
  const [windows, perLocation, downtimes] = await Promise.all([
    aggregateWindow(ctx.timeseries, [organizationId], ids, seconds, { source, percentile: true }),
    ids.length
      ? selectRows<{
          monitor_id: string
          location: string
          checks: string
          failures: string
          rt_sum: number
          p95: number
        }>(
          ctx.timeseries,
          `SELECT monitor_id, location, sum(checks) AS checks, sum(failures) AS failures, sum(rt_sum) AS rt_sum,
                  quantilesTDigestMerge(0.5, 0.95, 0.99)(rt_quantiles)[2] AS p95
             FROM ${table}
            WHERE organization_id = {org:String} AND monitor_id IN {ids:Array(String)}
              AND bucket >= now() - toIntervalSecond({window:UInt32})
            GROUP BY monitor_id, location ORDER BY location`,
          { org: organizationId, ids, window: seconds },
        )
      : Promise.resolve([]),
    Promise.all(ids.map((id) => downtimeWithin(ctx.sql, id, seconds))),
  ])
  const rows = domains.map((domain, index) => {
    const window = windows.get(domain.id)
    const checks = window?.checks ?? 0
    return {
      id: domain.id,
      name: domain.name,
      url: domain.url,
      checks,
      failures: window?.failures ?? 0,
      uptime: uptimeOf(window),
      avgResponseTime: averageOf(window),
      p95ResponseTime: checks ? round2(window?.p95 ?? 0) : null,
      incidents: downtimes[index]!.incidents,
      downtimeSeconds: downtimes[index]!.downtimeSeconds,
      locations: perLocation
        .filter((row) => row.monitor_id === domain.id)
        .map((row) => {
          const locationChecks = Number(row.checks)
          const failures = Number(row.failures)
          return {
            location: row.location,
            checks: locationChecks,
            failures,
            uptime: locationChecks ? round2(((locationChecks - failures) / locationChecks) * 100) : 0,
            avgResponseTime: locationChecks ? round2(Number(row.rt_sum) / locationChecks) : 0,
            p95ResponseTime: locationChecks ? round2(Number(row.p95)) : 0,
          }
        }),
    }
  })
  const checks = rows.reduce((sum, row) => sum + row.checks, 0)
  const failures = rows.reduce((sum, row) => sum + row.failures, 0)
  const rtSum = [...windows.values()].reduce((sum, window) => sum + window.rt_sum, 0)
  const to = new Date()
  return {
    range,
    from: new Date(to.getTime() - seconds * 1000).toISOString(),
    to: to.toISOString(),
    domains: rows,
    totals: {
      domains: rows.length,
      checks,
      failures,
      uptime: checks ? round2(((checks - failures) / checks) * 100) : null,
      avgResponseTime: checks ? round2(rtSum / checks) : null,
      incidents: rows.reduce((sum, row) => sum + row.incidents, 0),
      downtimeSeconds: rows.reduce((sum, row) => sum + row.downtimeSeconds, 0),
    },
  }
}
