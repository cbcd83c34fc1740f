import type { CollectorContext } from '../../context.ts'
import { coversAt, type MaintenanceWindowRow, WINDOW_COLUMNS } from '../maintenance-windows/find.ts'
import { selectRows } from '../results/query.ts'
import {
  budgetFigures,
  burnDown,
  burnRate,
  combineMembers,
  downIntervals,
  emptyMask,
  type Interval,
  MINUTE_MS,
  type MinuteMask,
  markCovered,
  markIntervals,
  type ResultPoint,
  type SloWindow,
} from './arithmetic.ts'
import type { SloRow } from './find.ts'
import type { SloStatus } from './schemas.ts'

const HOUR_MS = 3_600_000
/** Results this long before a span count the failures a location had in a row when the span starts. */
const LEAD_IN_MS = HOUR_MS
export const BURN_RATE_WINDOWS = { '1h': HOUR_MS, '6h': 6 * HOUR_MS, '24h': 24 * HOUR_MS, '3d': 72 * HOUR_MS } as const

interface Member {
  id: string
  failure_threshold: number
  quorum_percent: number
}

/** The SLO's monitors (a group's, with its subgroups'), and the share of them down that makes the subject bad. */
async function membersOf(ctx: CollectorContext, row: SloRow): Promise<{ members: Member[]; percent: number | null }> {
  if (row.monitor_id) {
    const { rows } = await ctx.sql.query<Member>(
      'SELECT id, failure_threshold, quorum_percent FROM monitoring.monitors WHERE id = $1',
      [row.monitor_id],
    )
    return { members: rows, percent: null }
  }
  const { rows: groups } = await ctx.sql.query<{ rule: string; rule_percent: number | null }>(
    'SELECT rule, rule_percent FROM monitoring.monitor_groups WHERE id = $1',
    [row.group_id],
  )
  const { rows } = await ctx.sql.query<Member>(
    `WITH RECURSIVE tree(id) AS (
       SELECT id FROM monitoring.monitor_groups WHERE id = $1
       UNION SELECT g.id FROM monitoring.monitor_groups g JOIN tree t ON g.parent_id = t.id
     )
     SELECT m.id, m.failure_threshold, m.quorum_percent FROM monitoring.monitors m
      WHERE m.group_id IN (SELECT id FROM tree) AND m.organization_id = $2 AND m.kind <> 'heartbeat'`,
    [row.group_id, row.organization_id],
  )
  const group = groups[0]
  return { members: rows, percent: group?.rule === 'percent' ? (group.rule_percent ?? null) : null }
}

/**
 * Of each member's results in the span, only those that can change the quorum: failures, the
 * result after a failure (a recovery) and each location's first (it makes the location known).
 * A healthy month is then a handful of rows, not one per check. A failure from a degraded probe
 * is left out before that, as the state machine ignores it (monitor-state/transition.ts).
 */
async function resultPoints(ctx: CollectorContext, organizationId: string, ids: string[], span: Interval) {
  if (ids.length === 0) return new Map<string, ResultPoint[]>()
  const rows = await selectRows<{ monitor_id: string; location: string; at: string; failed: number }>(
    ctx.timeseries,
    `SELECT monitor_id, location, at, failed FROM (
       SELECT monitor_id, location, toUnixTimestamp64Milli(started_at) AS at, toUInt8(status = 'down') AS failed,
              lagInFrame(toUInt8(status = 'down'), 1, toUInt8(1))
                OVER (PARTITION BY monitor_id, location ORDER BY started_at ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS failed_before
         FROM check_results FINAL
        WHERE organization_id = {org:String} AND monitor_id IN {ids:Array(String)}
          AND started_at >= fromUnixTimestamp64Milli({from:Int64}) AND started_at < fromUnixTimestamp64Milli({to:Int64})
          AND NOT (probe_degraded = 1 AND status <> 'up')
     ) WHERE failed = 1 OR failed_before = 1`,
    { org: organizationId, ids, from: span.from - LEAD_IN_MS, to: span.to },
  )
  const byMonitor = new Map<string, ResultPoint[]>()
  for (const row of rows) {
    const points = byMonitor.get(row.monitor_id) ?? []
    points.push({ location: row.location, at: Number(row.at), failed: Number(row.failed) === 1 })
    byMonitor.set(row.monitor_id, points)
  }
  return byMonitor
}

async function maintenanceOf(ctx: CollectorContext, organizationId: string, ids: string[], until: number) {
  const { rows } = await ctx.sql.query<MaintenanceWindowRow>(
    `SELECT ${WINDOW_COLUMNS} FROM monitoring.maintenance_windows
      WHERE organization_id = $1 AND (monitor_id IS NULL OR monitor_id = ANY($2)) AND starts_at < to_timestamp($3::float8 / 1000)`,
    [organizationId, ids, until],
  )
  return rows
}

export interface Minutes {
  bad: MinuteMask
  excluded: MinuteMask
}

/**
 * The subject's bad and excluded minutes over `span` as known at `now`. Maintenance of the whole
 * organization (and, for a monitor's SLO, of that monitor) leaves minutes out of the budget; in a
 * group, a member under its own maintenance counts as up.
 */
export async function subjectMinutes(
  ctx: CollectorContext,
  row: SloRow,
  span: Interval,
  now: number,
): Promise<Minutes> {
  const { members, percent } = await membersOf(ctx, row)
  const ids = members.map((member) => member.id)
  const known = Math.min(now, span.to)
  const [points, windows] = await Promise.all([
    resultPoints(ctx, row.organization_id, ids, { from: span.from, to: known }),
    maintenanceOf(ctx, row.organization_id, ids, span.to),
  ])
  const covering = (monitorId: string | null) => (at: number) =>
    windows.some((window) => window.monitor_id === monitorId && coversAt(window, at))
  const memberMasks = members.map((member) => {
    const mask = markIntervals(
      emptyMask(span.from, known),
      downIntervals(
        points.get(member.id) ?? [],
        { failureThreshold: member.failure_threshold, quorumPercent: member.quorum_percent },
        known,
      ),
    )
    if (row.group_id) {
      const own = markCovered(emptyMask(span.from, known), covering(member.id))
      for (let index = 0; index < mask.bits.length; index += 1) if (own.bits[index]) mask.bits[index] = 0
    }
    return mask
  })
  const bad = row.monitor_id
    ? (memberMasks[0] ?? emptyMask(span.from, known))
    : combineMembers(span.from, known, memberMasks, percent)
  const excluded = markCovered(
    emptyMask(span.from, span.to),
    (at) => covering(null)(at) || (row.monitor_id !== null && covering(row.monitor_id)(at)),
  )
  return { bad, excluded }
}

export const sloWindowOf = (row: SloRow): SloWindow =>
  row.window_type === 'rolling' ? { type: 'rolling', days: row.window_days! } : { type: 'calendar-month' }

/** Budget figures, burn rates and the daily burn-down of `window` from the subject's minutes. */
export function statusFrom(minutes: Minutes, objective: number, window: Interval, now: number): SloStatus {
  const figures = budgetFigures(minutes.bad, minutes.excluded, objective, window, now)
  const end = Math.floor(now / MINUTE_MS) * MINUTE_MS
  const rate = (ms: number) => burnRate(minutes.bad, minutes.excluded, objective, end - ms, end)
  return {
    from: new Date(window.from).toISOString(),
    to: new Date(window.to).toISOString(),
    ...figures,
    burnRates: {
      '1h': rate(BURN_RATE_WINDOWS['1h']),
      '6h': rate(BURN_RATE_WINDOWS['6h']),
      '24h': rate(BURN_RATE_WINDOWS['24h']),
      '3d': rate(BURN_RATE_WINDOWS['3d']),
    },
    burnDown: burnDown(minutes.bad, minutes.excluded, figures.budgetMinutes, window, now),
  }
}
