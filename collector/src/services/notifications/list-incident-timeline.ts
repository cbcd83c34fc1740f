import type { Caller, CollectorContext } from '../../context.ts'
import { findIncident } from '../incidents/find.ts'

/**
 * Who was told what about an incident, in order: every delivery to an organization channel (why:
 * event, escalation step, reminder, digest) with its state, and where each escalation stands.
 */
export async function listIncidentTimeline({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}) {
  const incident = await findIncident(ctx.sql, caller, input.id)
  const { rows: deliveries } = await ctx.sql.query<{
    id: string
    channel_id: string
    target: string
    channel: string
    purpose: string
    event_type: string
    status: string
    attempts: number
    created_at: Date
    next_attempt_at: Date
    delivered_at: Date | null
    last_error: string | null
  }>(
    `SELECT id, channel_id, target, channel, purpose, event_type, status, attempts, created_at, next_attempt_at,
            delivered_at, last_error
       FROM monitoring.notification_deliveries
      WHERE incident_id = $1 AND organization_id = $2 AND channel_id IS NOT NULL
      ORDER BY created_at, id`,
    [incident.id, incident.organization_id],
  )
  const { rows: escalations } = await ctx.sql.query<{
    route_id: string
    route_name: string | null
    round: number
    next_step: number
    next_step_at: Date | null
    next_reminder_at: Date | null
    reminders_sent: number
    stopped_at: Date | null
    stopped_reason: string | null
  }>(
    `SELECT e.route_id, r.name AS route_name, e.round, e.next_step, e.next_step_at, e.next_reminder_at,
            e.reminders_sent, e.stopped_at, e.stopped_reason
       FROM monitoring.incident_escalations e LEFT JOIN monitoring.notification_routes r ON r.id = e.route_id
      WHERE e.incident_id = $1 AND e.organization_id = $2`,
    [incident.id, incident.organization_id],
  )
  const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null)
  return {
    deliveries: deliveries.map((row) => ({
      id: row.id,
      channelId: row.channel_id,
      channelName: row.target,
      provider: row.channel,
      purpose: row.purpose,
      eventType: row.event_type,
      status: row.status,
      attempts: row.attempts,
      createdAt: iso(row.created_at)!,
      dueAt: row.status === 'pending' || row.status === 'held' ? iso(row.next_attempt_at) : null,
      deliveredAt: iso(row.delivered_at),
      lastError: row.last_error,
    })),
    escalations: escalations.map((row) => ({
      routeId: row.route_id,
      routeName: row.route_name,
      round: row.round,
      nextStep: row.next_step,
      nextStepAt: iso(row.next_step_at),
      nextReminderAt: iso(row.next_reminder_at),
      remindersSent: row.reminders_sent,
      stoppedAt: iso(row.stopped_at),
      stoppedReason: row.stopped_reason,
    })),
  }
}
