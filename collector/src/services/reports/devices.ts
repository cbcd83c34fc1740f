import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { selectRows } from '../results/query.ts'
import { round2 } from '../results/window.ts'
import { tagCondition } from '../tags/match.ts'
import { REPORT_RANGES, type ReportQuery, reportQuery } from './domains.ts'

const percent = (description: string) => z.number().nullable().meta({ description })
export const deviceReportRow = z.object({
  id: z.string(),
  name: z.string(),
  online: z.boolean().meta({ description: 'state now' }),
  availability: percent('percent of the range online, counted from enrolment; null for a device that never reported'),
  offlineSeconds: z.number().int(),
  offlineIncidents: z.number().int().meta({ description: 'offline periods overlapping the range' }),
  heartbeats: z.number().int(),
  cpuAvg: percent('average CPU usage, %; null without heartbeats in the range'),
  cpuPeak: percent('highest per-heartbeat CPU usage, %'),
  memoryAvg: percent('average memory usage, %'),
  memoryPeak: percent('highest memory usage, %'),
  diskAvg: percent('average disk usage, %'),
  diskPeak: percent('highest disk usage, %'),
})
export type DeviceReportRow = z.infer<typeof deviceReportRow>
export const deviceReport = z.object({
  range: z.enum(['24h', '7d', '30d']),
  from: z.string(),
  to: z.string(),
  devices: z.array(deviceReportRow),
  totals: z.object({
    devices: z.number().int(),
    online: z.number().int(),
    availability: percent('average availability of the devices that reported'),
    offlineSeconds: z.number().int(),
    heartbeats: z.number().int(),
  }),
})
export type DeviceReport = z.infer<typeof deviceReport>

interface DeviceRow {
  id: string
  name: string
  is_online: boolean
  last_seen: Date | null
  created_at: Date
}

const USAGE = ['cpu', 'memory', 'disk'] as const

/**
 * Per device over the range: availability from its offline incidents (opened by device.offline,
 * resolved by device.online, clipped to the range and to its enrolment), and average and peak CPU,
 * memory and disk usage from the per-minute rollup (peaks are the highest single heartbeat).
 */
export async function reportDevices(ctx: CollectorContext, caller: Caller, query: ReportQuery): Promise<DeviceReport> {
  const { range, organizationId: requested, tag } = reportQuery.parse(query)
  const organizationId = organizationScope(caller, requested)
  const tagged = tagCondition('tags', tag, 2)
  const seconds = REPORT_RANGES[range]
  const to = new Date()
  const from = new Date(to.getTime() - seconds * 1000)
  const { rows: devices } = await ctx.sql.query<DeviceRow>(
    `SELECT id, name, is_online, last_seen, created_at FROM monitoring.devices
      WHERE organization_id = $1 AND ${tagged.sql} ORDER BY name, id`,
    [organizationId, ...tagged.parameters],
  )
  const ids = devices.map((device) => device.id)
  const [usage, offline] = await Promise.all([
    ids.length
      ? selectRows<{ device_id: string; type: (typeof USAGE)[number]; avg: number; peak: number; heartbeats: string }>(
          ctx.timeseries,
          `SELECT device_id, type, sum(value_sum) / sum(samples) AS avg, max(value_max) AS peak, sum(samples) AS heartbeats
             FROM device_metrics_1m
            WHERE organization_id = {org:String} AND device_id IN {ids:Array(String)}
              AND type IN {types:Array(String)} AND name = 'usage'
              AND bucket >= toStartOfMinute(now() - toIntervalSecond({seconds:UInt32}))
            GROUP BY device_id, type`,
          { org: organizationId, ids, types: [...USAGE], seconds },
        )
      : [],
    ids.length
      ? ctx.sql.query<{ monitor_id: string; detected_at: Date; resolved_at: Date | null }>(
          `SELECT monitor_id, detected_at, resolved_at FROM monitoring.incidents
            WHERE organization_id = $1 AND monitor_id = ANY($2) AND cause = 'device-offline'
              AND coalesce(resolved_at, now()) > $3 AND detected_at < $4`,
          [organizationId, ids, from, to],
        )
      : { rows: [] },
  ])
  const rows = devices.map((device): DeviceReportRow => {
    const since = Math.max(from.getTime(), device.created_at.getTime())
    const periods = offline.rows.filter((incident) => incident.monitor_id === device.id)
    const offlineMs = periods.reduce(
      (sum, incident) =>
        sum +
        Math.max(
          0,
          Math.min(incident.resolved_at?.getTime() ?? to.getTime(), to.getTime()) -
            Math.max(incident.detected_at.getTime(), since),
        ),
      0,
    )
    const observed = to.getTime() - since
    const figure = (type: (typeof USAGE)[number]) =>
      usage.find((row) => row.device_id === device.id && row.type === type)
    const cpu = figure('cpu')
    const memory = figure('memory')
    const disk = figure('disk')
    const avg = (row: typeof cpu) => (row ? round2(Number(row.avg)) : null)
    const peak = (row: typeof cpu) => (row ? round2(Number(row.peak)) : null)
    return {
      id: device.id,
      name: device.name,
      online: device.is_online,
      availability:
        device.last_seen === null || observed <= 0
          ? null
          : round2(100 - (Math.min(offlineMs, observed) / observed) * 100),
      offlineSeconds: Math.round(offlineMs / 1000),
      offlineIncidents: periods.length,
      heartbeats: Number(cpu?.heartbeats ?? 0),
      cpuAvg: avg(cpu),
      cpuPeak: peak(cpu),
      memoryAvg: avg(memory),
      memoryPeak: peak(memory),
      diskAvg: avg(disk),
      diskPeak: peak(disk),
    }
  })
  const reported = rows.flatMap((row) => (row.availability === null ? [] : [row.availability]))
  return {
    range,
    from: from.toISOString(),
    to: to.toISOString(),
    devices: rows,
    totals: {
      devices: rows.length,
      online: rows.filter((row) => row.online).length,
      availability: reported.length ? round2(reported.reduce((a, b) => a + b, 0) / reported.length) : null,
      offlineSeconds: rows.reduce((sum, row) => sum + row.offlineSeconds, 0),
      heartbeats: rows.reduce((sum, row) => sum + row.heartbeats, 0),
    },
  }
}
