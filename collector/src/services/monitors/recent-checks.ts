import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { hasPermission } from '../access/permissions.ts'
import { isoFromMillis, selectRows } from '../results/query.ts'
import { uptimeOf } from '../results/window.ts'
import { readLastDay } from '../summaries/read.ts'

/** Bounds of one batch: a list page or an overview asks once, never once per row. */
export const RECENT_CHECKS_MAX_IDS = 200
export const RECENT_CHECKS_MAX_LIMIT = 100

export const recentChecksInput = z.strictObject({
  ids: z
    .array(z.string().min(1).max(64))
    .min(1, 'name at least one monitor id')
    .max(RECENT_CHECKS_MAX_IDS, `at most ${RECENT_CHECKS_MAX_IDS} monitor ids at once`),
  limit: z.number().int().min(1).max(RECENT_CHECKS_MAX_LIMIT).default(30),
  organizationId: z.string().max(64).optional(),
})

/** Heartbeats' runs are results of the same store (location `heartbeat`), so their sparklines read here too. */
export const recentChecksKind = z.enum(['domain', 'service', 'heartbeat'])
type RecentChecksKind = z.infer<typeof recentChecksKind>

export const recentCheck = z.object({
  timestamp: z.string().describe('When the check started'),
  status: z.string().describe('up, degraded or down'),
  location: z.string().describe('The probe location that ran it; `heartbeat` for a heartbeat’s runs'),
  responseTime: z.number().describe('Milliseconds; a heartbeat’s run duration (0 for a run without a start ping)'),
  statusCode: z.number().int().nullable().describe('The HTTP status; null for checks without an HTTP answer'),
  errorKind: z.string().nullable().describe('Why it was not up (closed set); null when up'),
  error: z.string().nullable().describe('The reason in words; null when up'),
})
export type RecentCheck = z.infer<typeof recentCheck>

export const monitorRecentChecks = z.object({
  monitorId: z.string(),
  kind: recentChecksKind,
  uptime24h: z.number().nullable().describe('Percent of checks not down over the last 24 hours; null without a check'),
  checks: z.array(recentCheck).describe('The newest `limit` checks, every location mixed, oldest first'),
})
export type MonitorRecentChecks = z.infer<typeof monitorRecentChecks>

const READ_PERMISSION: Record<RecentChecksKind, string> = {
  domain: 'domains:read',
  service: 'services:read',
  heartbeat: 'heartbeats:read',
}
const HOUR = 3600

interface ResultRow {
  monitor_id: string
  location: string
  status: string
  response_time_ms: number
  status_code: number
  error: string
  error_kind: string
  ts: number
}

/**
 * How far back a monitor's newest `limit` checks are looked for: twice the time they take at its
 * interval (room for missed rounds), at least an hour, at most the raw retention. The bound keeps
 * the read to a few parts of ClickHouse's primary key instead of a monitor's whole history.
 */
export function lookbackSeconds(checkInterval: number, limit: number, retentionDays: number): number {
  return Math.min(retentionDays * 86_400, Math.max(HOUR, checkInterval * limit * 2))
}

/**
 * The newest checks of several monitors in one read, for heartbeat bars and sparklines of lists.
 * Only monitors of the request's organization, of kinds the caller may read, are answered; any
 * other id is left out (as if it did not exist), in the order the ids were asked.
 */
export async function listRecentChecks({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: z.input<typeof recentChecksInput>
}): Promise<MonitorRecentChecks[]> {
  const { ids, limit, organizationId } = recentChecksInput.parse(input)
  const organization = organizationScope(caller, organizationId)
  const kinds = recentChecksKind.options.filter((kind) => hasPermission(caller.permissions, READ_PERMISSION[kind]))
  const unique = [...new Set(ids)]
  const { rows: monitors } = await ctx.sql.query<{ id: string; kind: RecentChecksKind; check_interval: number }>(
    `SELECT id, kind, check_interval FROM monitoring.monitors
      WHERE id = ANY($1) AND organization_id = $2 AND kind = ANY($3)`,
    [unique, organization, kinds],
  )
  if (monitors.length === 0) return []

  // One condition per distinct look-back, so monitors of different intervals share a single query.
  const byWindow = new Map<number, string[]>()
  for (const monitor of monitors) {
    const window = lookbackSeconds(monitor.check_interval, limit, ctx.env.GUARD_RETENTION_RAW_DAYS)
    byWindow.set(window, [...(byWindow.get(window) ?? []), monitor.id])
  }
  const params: Record<string, unknown> = { org: organization, limit }
  const conditions = [...byWindow.entries()].map(([window, group], index) => {
    params[`ids${index}`] = group
    params[`window${index}`] = window
    return `(monitor_id IN {ids${index}:Array(String)} AND started_at >= now64(3) - toIntervalSecond({window${index}:UInt32}))`
  })
  const [results, lastDay] = await Promise.all([
    selectRows<ResultRow>(
      ctx.timeseries,
      `SELECT monitor_id, location, status, response_time_ms, status_code, error, error_kind,
              toUnixTimestamp64Milli(started_at) AS ts
         FROM check_results FINAL
        WHERE organization_id = {org:String} AND (${conditions.join(' OR ')})
        ORDER BY monitor_id, started_at DESC, id DESC
        LIMIT {limit:UInt32} BY monitor_id`,
      params,
    ),
    readLastDay(
      ctx.sql,
      monitors.map((monitor) => monitor.id),
    ),
  ])

  const checks = new Map<string, RecentCheck[]>()
  for (const row of results) {
    const list = checks.get(row.monitor_id) ?? []
    const up = row.status === 'up'
    list.push({
      timestamp: isoFromMillis(row.ts),
      status: row.status,
      location: row.location,
      responseTime: Number(row.response_time_ms),
      statusCode: Number(row.status_code) || null,
      errorKind: up ? null : row.error_kind || null,
      error: up ? null : row.error || null,
    })
    checks.set(row.monitor_id, list)
  }
  const kindOf = new Map(monitors.map((monitor) => [monitor.id, monitor.kind]))
  return unique.flatMap((id) => {
    const kind = kindOf.get(id)
    if (!kind) return []
    return [{ monitorId: id, kind, uptime24h: uptimeOf(lastDay.get(id)), checks: (checks.get(id) ?? []).reverse() }]
  })
}
