import type { CollectorContext } from '../../context.ts'
import { coversAt, type MaintenanceWindowRow, WINDOW_COLUMNS } from '../maintenance-windows/find.ts'
import { PROBE_KINDS } from '../monitors/kinds/index.ts'
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

interface Subject {
  members: Member[]
  /** The share of members down that makes the subject bad; null: any (a monitor's SLO has one member). */
  percent: number | null
}

/**
 * Each SLO's monitors (a group's, with its subgroups'), by SLO id, in two statements whatever the
 * number of SLOs: a report over hundreds of them reads them at once.
 */
async function membersOf(ctx: CollectorContext, rows: readonly SloRow[]): Promise<Map<string, Subject>> {
  const monitorIds = rows.flatMap((row) => (row.monitor_id ? [row.monitor_id] : []))
  const groupIds = rows.flatMap((row) => (row.group_id ? [row.group_id] : []))
  const organizationIds = [...new Set(rows.map((row) => row.organization_id))]
  const [{ rows: monitors }, { rows: groups }, { rows: groupMembers }] = await Promise.all([
    monitorIds.length === 0
      ? { rows: [] }
      : ctx.sql.query<Member>(
          'SELECT id, failure_threshold, quorum_percent FROM monitoring.monitors WHERE id = ANY($1)',
          [monitorIds],
        ),
    groupIds.length === 0
      ? { rows: [] }
      : ctx.sql.query<{ id: string; rule: string; rule_percent: number | null }>(
          'SELECT id, rule, rule_percent FROM monitoring.monitor_groups WHERE id = ANY($1)',
          [groupIds],
        ),
    groupIds.length === 0
      ? { rows: [] }
      : ctx.sql.query<Member & { root: string; organization_id: string }>(
          `WITH RECURSIVE tree(root, id) AS (
             SELECT id, id FROM monitoring.monitor_groups WHERE id = ANY($1)
             UNION SELECT t.root, g.id FROM monitoring.monitor_groups g JOIN tree t ON g.parent_id = t.id
           )
           SELECT t.root, m.organization_id, m.id, m.failure_threshold, m.quorum_percent
             FROM tree t JOIN monitoring.monitors m ON m.group_id = t.id
            WHERE m.organization_id = ANY($2) AND m.kind = ANY($3)`,
          [groupIds, organizationIds, PROBE_KINDS],
        ),
  ])
  const monitorById = new Map(monitors.map((monitor) => [monitor.id, monitor]))
  const groupById = new Map(groups.map((group) => [group.id, group]))
  const subjects = new Map<string, Subject>()
  for (const row of rows) {
    if (row.monitor_id) {
      const monitor = monitorById.get(row.monitor_id)
      subjects.set(row.id, { members: monitor ? [monitor] : [], percent: null })
      continue
    }
    const group = groupById.get(row.group_id!)
    subjects.set(row.id, {
      members: groupMembers
        .filter((member) => member.root === row.group_id && member.organization_id === row.organization_id)
        .map(({ id, failure_threshold, quorum_percent }) => ({ id, failure_threshold, quorum_percent })),
      percent: group?.rule === 'percent' ? (group.rule_percent ?? null) : null,
    })
  }
  return subjects
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
  return (await subjectsMinutes(ctx, [row], span, now)).get(row.id)!
}

/**
 * subjectMinutes of many SLOs of one organization over the same span, by SLO id: their members,
 * results and maintenance read in one go rather than per SLO.
 */
export async function subjectsMinutes(
  ctx: CollectorContext,
  rows: readonly SloRow[],
  span: Interval,
  now: number,
): Promise<Map<string, Minutes>> {
  const minutes = new Map<string, Minutes>()
  const organizationId = rows[0]?.organization_id
  if (organizationId === undefined) return minutes
  if (rows.some((row) => row.organization_id !== organizationId)) {
    throw new Error('subjectsMinutes: SLOs of one organization only')
  }
  const subjects = await membersOf(ctx, rows)
  const ids = [...new Set([...subjects.values()].flatMap((subject) => subject.members.map((member) => member.id)))]
  const known = Math.min(now, span.to)
  const [points, windows] = await Promise.all([
    resultPoints(ctx, organizationId, ids, { from: span.from, to: known }),
    maintenanceOf(ctx, organizationId, ids, span.to),
  ])
  // Masks of maintenance, each built once and only where a window exists: walking every minute of
  // a month per member and per SLO is what made a report over hundreds of SLOs take seconds.
  const windowsOf = new Map<string | null, MaintenanceWindowRow[]>()
  for (const window of windows) windowsOf.set(window.monitor_id, [...(windowsOf.get(window.monitor_id) ?? []), window])
  const coveredMasks = new Map<string | null, MinuteMask | undefined>()
  const coveredBy = (monitorId: string | null): MinuteMask | undefined => {
    if (!coveredMasks.has(monitorId)) {
      const own = windowsOf.get(monitorId)
      coveredMasks.set(
        monitorId,
        own && markCovered(emptyMask(span.from, span.to), (at) => own.some((window) => coversAt(window, at))),
      )
    }
    return coveredMasks.get(monitorId)
  }
  for (const row of rows) {
    const { members, percent } = subjects.get(row.id)!
    const memberMasks = members.map((member) => {
      const mask = markIntervals(
        emptyMask(span.from, known),
        downIntervals(
          points.get(member.id) ?? [],
          { failureThreshold: member.failure_threshold, quorumPercent: member.quorum_percent },
          known,
        ),
      )
      const own = row.group_id ? coveredBy(member.id) : undefined
      if (own) for (let index = 0; index < mask.bits.length; index += 1) if (own.bits[index]) mask.bits[index] = 0
      return mask
    })
    const bad = row.monitor_id
      ? (memberMasks[0] ?? emptyMask(span.from, known))
      : combineMembers(span.from, known, memberMasks, percent)
    const excluded = emptyMask(span.from, span.to)
    for (const covered of [coveredBy(null), row.monitor_id ? coveredBy(row.monitor_id) : undefined]) {
      if (covered)
        for (let index = 0; index < excluded.bits.length; index += 1) excluded.bits[index] ||= covered.bits[index]!
    }
    minutes.set(row.id, { bad, excluded })
  }
  return minutes
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
