import type { GuardEvent } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { publishStagedEvents } from '../events/publish.ts'
import { stageEvents } from '../events/stage.ts'
import { type FiringAlert, firingAlert, MINUTE_MS, windowBounds } from './arithmetic.ts'
import { SLO_SELECT, type SloRow } from './find.ts'
import { BURN_RATE_WINDOWS, sloWindowOf, statusFrom, subjectMinutes } from './status.ts'

const subjectOf = (row: SloRow) => ({
  sloId: row.id,
  sloName: row.name,
  subject: row.monitor_id
    ? { kind: 'monitor' as const, id: row.monitor_id, name: row.subject_name ?? '' }
    : { kind: 'group' as const, id: row.group_id!, name: row.subject_name ?? '' },
  ...(row.monitor_kind ? { monitorKind: row.monitor_kind } : {}),
})

/** The budget left now, read only when an alert changes state (it needs the whole window). */
async function remainingPercent(ctx: CollectorContext, row: SloRow, now: number) {
  const window = windowBounds(sloWindowOf(row), now)
  const span = { from: Math.min(window.from, now - BURN_RATE_WINDOWS['3d']), to: Math.max(window.to, now) }
  return statusFrom(await subjectMinutes(ctx, row, span, now), Number(row.objective), window, now).remainingPercent
}

/**
 * Judges every SLO's burn alerts at `now`: an SLO starting to burn stages `slo.burning`, one that
 * stops stages `slo.recovered`. The `burning` column changes in the same transaction as the event
 * is staged, guarded on its old value, so two replicas or a repeated run announce each change once.
 * Returns the event ids staged.
 */
export async function evaluateBurnAlerts(ctx: CollectorContext, now = Date.now()): Promise<string[]> {
  const { rows } = await ctx.sql.query<SloRow>(
    `${SLO_SELECT} WHERE jsonb_array_length(s.burn_alerts) > 0 OR s.burning IS NOT NULL ORDER BY s.id`,
  )
  const staged: string[] = []
  for (const row of rows) {
    const longest = Math.max(0, ...row.burn_alerts.map((alert) => alert.longWindowMinutes)) * MINUTE_MS
    const window = windowBounds(sloWindowOf(row), now)
    const windowMinutes = Math.round((window.to - window.from) / MINUTE_MS)
    let firing: FiringAlert | undefined
    if (longest > 0) {
      const span = { from: Math.floor(now / MINUTE_MS) * MINUTE_MS - longest, to: now }
      const minutes = await subjectMinutes(ctx, row, span, now)
      firing = firingAlert(row.burn_alerts, minutes.bad, minutes.excluded, Number(row.objective), windowMinutes, now)
    }
    if (Boolean(firing) === Boolean(row.burning)) continue
    const at = new Date(now).toISOString()
    const left = await remainingPercent(ctx, row, now)
    const ids = await ctx.sql.transaction(async (tx) => {
      const events: GuardEvent[] = []
      if (firing) {
        const { rows: changed } = await tx.query(
          'UPDATE monitoring.slos SET burning = $2 WHERE id = $1 AND burning IS NULL RETURNING id',
          [row.id, JSON.stringify({ severity: firing.alert.severity, since: at, burnRate: firing.longBurnRate })],
        )
        if (changed.length === 0) return []
        events.push({
          v: 1,
          id: `slo.burning:${row.id}:${at}`,
          type: 'slo.burning',
          occurredAt: at,
          organizationId: row.organization_id,
          data: {
            ...subjectOf(row),
            objective: Number(row.objective),
            severity: firing.alert.severity,
            budgetPercent: firing.alert.budgetPercent,
            longWindowMinutes: firing.alert.longWindowMinutes,
            shortWindowMinutes: firing.alert.shortWindowMinutes,
            threshold: firing.threshold,
            longBurnRate: firing.longBurnRate,
            shortBurnRate: firing.shortBurnRate,
            remainingPercent: left,
          },
        })
      } else {
        const { rows: changed } = await tx.query(
          'UPDATE monitoring.slos SET burning = NULL WHERE id = $1 AND burning IS NOT NULL RETURNING id',
          [row.id],
        )
        if (changed.length === 0) return []
        events.push({
          v: 1,
          id: `slo.recovered:${row.id}:${at}`,
          type: 'slo.recovered',
          occurredAt: at,
          organizationId: row.organization_id,
          data: { ...subjectOf(row), remainingPercent: left },
        })
      }
      return stageEvents(tx, events)
    })
    staged.push(...ids)
  }
  if (staged.length > 0) {
    try {
      await publishStagedEvents(ctx, { ids: staged })
    } catch (error) {
      ctx.log.warn({ err: error }, 'SLO burn events staged but not published yet; the relay publishes them')
    }
  }
  return staged
}
