import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { downtimeWithin } from '../monitor-state/incidents.ts'
import { selectRows } from '../results/query.ts'
import { aggregateWindow, round2, uptimeOf } from '../results/window.ts'
import { tagCondition } from '../tags/match.ts'
import { REPORT_RANGES, type ReportQuery, reportQuery } from './domains.ts'

export const heartbeatReportRow = z.object({
  id: z.string(),
  name: z.string(),
  schedule: z.string().meta({ description: '`every N s`, or the cron expression and its time zone' }),
  runs: z.number().int().meta({ description: 'runs that ended (pings) plus windows missed' }),
  failures: z
    .number()
    .int()
    .meta({ description: 'runs that failed, ended with an error, took too long or were missed' }),
  uptime: z.number().nullable().meta({ description: 'percent of runs that succeeded; null without a run' }),
  avgRunSeconds: z.number().nullable().meta({ description: 'from `/start` to the end; null without a timed run' }),
  p95RunSeconds: z.number().nullable(),
  incidents: z.number().int(),
  downtimeSeconds: z.number().int(),
})
export const heartbeatReport = z.object({
  range: z.enum(['24h', '7d', '30d']),
  from: z.string(),
  to: z.string(),
  heartbeats: z.array(heartbeatReportRow),
  totals: z.object({
    heartbeats: z.number().int(),
    runs: z.number().int(),
    failures: z.number().int(),
    uptime: z.number().nullable(),
    incidents: z.number().int(),
    downtimeSeconds: z.number().int(),
  }),
})
export type HeartbeatReport = z.infer<typeof heartbeatReport>

/**
 * Per heartbeat over the range: runs, failures and uptime from the same rollups as the domain report
 * (each run's end and each missed window is one result), run durations from the run log, incidents
 * and downtime.
 */
export async function reportHeartbeats(
  ctx: CollectorContext,
  caller: Caller,
  query: ReportQuery,
): Promise<HeartbeatReport> {
  const { range, organizationId: requested, tag } = reportQuery.parse(query)
  const organizationId = organizationScope(caller, requested)
  const tagged = tagCondition('m.tags', tag, 2)
  const seconds = REPORT_RANGES[range]
  const { rows: heartbeats } = await ctx.sql.query<{
    id: string
    name: string
    every_seconds: number | null
    cron: string | null
    timezone: string
  }>(
    `SELECT m.id, m.name, h.every_seconds, h.cron, h.timezone
       FROM monitoring.monitors m JOIN monitoring.heartbeats h ON h.monitor_id = m.id
      WHERE m.organization_id = $1 AND ${tagged.sql} ORDER BY m.name, m.id`,
    [organizationId, ...tagged.parameters],
  )
  const ids = heartbeats.map((heartbeat) => heartbeat.id)
  const [windows, durations, downtimes] = await Promise.all([
    aggregateWindow(ctx.timeseries, [organizationId], ids, seconds, { source: range === '24h' ? 'minute' : 'hour' }),
    // Durations from the run log: only runs with a start ping have one, so the rollups (where the
    // others and the missed windows count as 0 ms) would understate them.
    ids.length
      ? selectRows<{ monitor_id: string; avg: number; p95: number }>(
          ctx.timeseries,
          `SELECT monitor_id, avg(duration_ms) AS avg, quantile(0.95)(duration_ms) AS p95
             FROM heartbeat_pings FINAL
            WHERE organization_id = {org:String} AND monitor_id IN {ids:Array(String)}
              AND received_at >= now() - toIntervalSecond({window:UInt32}) AND duration_ms IS NOT NULL
            GROUP BY monitor_id`,
          { org: organizationId, ids, window: seconds },
        )
      : Promise.resolve([]),
    Promise.all(ids.map((id) => downtimeWithin(ctx.sql, id, seconds))),
  ])
  const timed = new Map(durations.map((row) => [row.monitor_id, row]))
  const runSeconds = (ms: number) => round2(Number(ms) / 1000)
  const rows = heartbeats.map((heartbeat, index) => {
    const window = windows.get(heartbeat.id)
    const runs = window?.checks ?? 0
    const duration = timed.get(heartbeat.id)
    return {
      id: heartbeat.id,
      name: heartbeat.name,
      schedule: heartbeat.cron ? `${heartbeat.cron} (${heartbeat.timezone})` : `every ${heartbeat.every_seconds} s`,
      runs,
      failures: window?.failures ?? 0,
      uptime: uptimeOf(window),
      avgRunSeconds: duration ? runSeconds(duration.avg) : null,
      p95RunSeconds: duration ? runSeconds(duration.p95) : null,
      incidents: downtimes[index]!.incidents,
      downtimeSeconds: downtimes[index]!.downtimeSeconds,
    }
  })
  const runs = rows.reduce((sum, row) => sum + row.runs, 0)
  const failures = rows.reduce((sum, row) => sum + row.failures, 0)
  const to = new Date()
  return {
    range,
    from: new Date(to.getTime() - seconds * 1000).toISOString(),
    to: to.toISOString(),
    heartbeats: rows,
    totals: {
      heartbeats: rows.length,
      runs,
      failures,
      uptime: runs ? round2(((runs - failures) / runs) * 100) : null,
      incidents: rows.reduce((sum, row) => sum + row.incidents, 0),
      downtimeSeconds: rows.reduce((sum, row) => sum + row.downtimeSeconds, 0),
    },
  }
}
