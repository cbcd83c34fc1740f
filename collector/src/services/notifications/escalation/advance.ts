import type { Sql, Stoppable } from '@guard/shared'
import type { CollectorContext } from '../../../context.ts'
import { INCIDENT_COLUMNS, type IncidentRow } from '../../incidents/find.ts'
import { alertOfIncident } from '../alert-of.ts'
import { notifyChannels } from '../routing/notify-channels.ts'
import { sendDueDigests } from '../routing/send-digests.ts'
import { stopEscalations } from './start.ts'

interface DueEscalation {
  incident_id: string
  route_id: string
  round: number
  next_step: number
  next_step_at: Date | null
  reminder_minutes: number | null
  next_reminder_at: Date | null
  reminders_sent: number
  notified_channel_ids: string[]
  created_at: Date
  steps: Array<{ afterMinutes: number; channelIds: string[] }> | null
  repeat: number | null
  repeat_after_minutes: number | null
  route_channel_ids: string[] | null
}

const MINUTE = 60_000

const elapsed = (ms: number) => {
  const minutes = Math.round(ms / MINUTE)
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

/** Sends what is due of one escalation (steps, then a reminder) and records where it stands, in one transaction. */
async function advance(ctx: CollectorContext, tx: Sql, row: DueEscalation, now: Date): Promise<void> {
  const { rows } = await tx.query<IncidentRow>(`SELECT ${INCIDENT_COLUMNS} FROM monitoring.incidents WHERE id = $1`, [
    row.incident_id,
  ])
  const incident = rows[0]
  if (!incident || incident.resolved_at) {
    await stopEscalations(tx, row.incident_id, 'resolved')
    return
  }
  let { round, next_step: step, next_step_at: stepAt, next_reminder_at: reminderAt, reminders_sent: reminders } = row
  const notified = new Set(row.notified_channel_ids)
  const steps = row.steps ?? []
  const start = new Date(row.created_at).getTime()
  const cycle = (steps.at(-1)?.afterMinutes ?? 0) + (row.repeat_after_minutes ?? 30)
  const acknowledged = incident.status !== 'open'
  if (acknowledged) stepAt = null
  while (stepAt && stepAt <= now && steps[step]) {
    const current = steps[step]!
    const key = `escalation:${incident.id}:${row.route_id}:${round}:${step}`
    const text =
      round === 0 && step === 0 && current.afterMinutes === 0
        ? incident.description || incident.title
        : `Not acknowledged after ${elapsed(now.getTime() - new Date(incident.detected_at).getTime())}: escalation step ${step + 1} of ${steps.length}${round > 0 ? `, repeat ${round}` : ''}`
    const alert = alertOfIncident(ctx, incident, {
      kind: round === 0 && step === 0 && current.afterMinutes === 0 ? 'opened' : 'escalated',
      key,
      at: now,
      text,
    })
    await notifyChannels(ctx, tx, {
      alert,
      channelIds: current.channelIds,
      purpose: `escalation step ${step + 1}`,
      key,
      now,
    })
    for (const id of current.channelIds) notified.add(id)
    step += 1
    if (step >= steps.length) {
      if (round >= (row.repeat ?? 0)) {
        stepAt = null
        break
      }
      round += 1
      step = 0
    }
    stepAt = new Date(start + (round * cycle + steps[step]!.afterMinutes) * MINUTE)
  }
  if (reminderAt && reminderAt <= now && row.reminder_minutes) {
    reminders += 1
    const key = `reminder:${incident.id}:${row.route_id}:${reminders}`
    const alert = alertOfIncident(ctx, incident, {
      kind: 'reminder',
      key,
      at: now,
      text: `Still ${incident.status} after ${elapsed(now.getTime() - new Date(incident.detected_at).getTime())}`,
    })
    const targets = [...new Set([...(row.route_channel_ids ?? []), ...notified])]
    await notifyChannels(ctx, tx, { alert, channelIds: targets, purpose: 'reminder', key, now })
    const every = row.reminder_minutes * MINUTE
    const next = reminderAt.getTime() + every
    // A collector that was away sends one reminder for the time it missed, not one per period.
    reminderAt = new Date(next > now.getTime() ? next : now.getTime() + every)
  }
  await tx.query(
    `UPDATE monitoring.incident_escalations
        SET round = $3, next_step = $4, next_step_at = $5, next_reminder_at = $6, reminders_sent = $7,
            notified_channel_ids = $8
      WHERE incident_id = $1 AND route_id = $2`,
    [row.incident_id, row.route_id, round, step, stepAt, reminderAt, reminders, [...notified]],
  )
}

const DUE_ESCALATIONS = `SELECT e.incident_id, e.route_id, e.round, e.next_step, e.next_step_at, e.reminder_minutes,
       e.next_reminder_at, e.reminders_sent, e.notified_channel_ids, e.created_at, p.steps, p.repeat,
       p.repeat_after_minutes, r.channel_ids AS route_channel_ids
  FROM monitoring.incident_escalations e
  LEFT JOIN monitoring.escalation_policies p ON p.id = e.policy_id
  LEFT JOIN monitoring.notification_routes r ON r.id = e.route_id
 WHERE e.stopped_at IS NULL AND (e.next_step_at <= $1 OR e.next_reminder_at <= $1)`

/**
 * One pass: every escalation with a step or reminder due, each in its own transaction with the
 * row locked (SKIP LOCKED, so replicas share the work and never send the same step twice).
 */
export async function runDueEscalations(ctx: CollectorContext, now = new Date(), limit = 100): Promise<number> {
  let handled = 0
  while (handled < limit) {
    const advanced = await ctx.sql.transaction(async (tx) => {
      const { rows } = await tx.query<DueEscalation>(
        `${DUE_ESCALATIONS} ORDER BY least(e.next_step_at, e.next_reminder_at) LIMIT 1 FOR UPDATE OF e SKIP LOCKED`,
        [now],
      )
      if (!rows[0]) return false
      await advance(ctx, tx, rows[0], now)
      return true
    })
    if (!advanced) break
    handled += 1
  }
  return handled
}

/** Sends at once the steps due now of an incident's escalations, in the transaction that started them. */
export async function advanceEscalationsOf(ctx: CollectorContext, tx: Sql, incidentId: string, now: Date) {
  const { rows } = await tx.query<DueEscalation>(`${DUE_ESCALATIONS} AND e.incident_id = $2 FOR UPDATE OF e`, [
    now,
    incidentId,
  ])
  for (const row of rows) await advance(ctx, tx, row, now)
}

/** Every GUARD_ESCALATION_POLL_MS: escalation steps, reminders and quiet-hours digests that are due. */
export function startEscalationWorker(ctx: CollectorContext): Stoppable {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  const tick = async () => {
    try {
      const sent = (await runDueEscalations(ctx)) + (await sendDueDigests(ctx))
      if (sent > 0) ctx.wake.dispatchEvent(new Event('deliveries'))
    } catch (error) {
      ctx.log.warn({ err: error }, 'escalation pass failed; the next one retries')
    }
    if (!stopped) timer = setTimeout(() => (running = tick()), ctx.env.GUARD_ESCALATION_POLL_MS)
  }
  timer = setTimeout(() => (running = tick()), ctx.env.GUARD_ESCALATION_POLL_MS)
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
