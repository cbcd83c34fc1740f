import type { Sql } from '@guard/shared'
import type { RouteRow } from '../routing/match.ts'

/**
 * Starts (or, for a reopened incident, restarts) the escalation of an incident on a route that has
 * a policy or reminders: its clock starts `now`, its first step is due after the step's minutes.
 * The worker takes it from there, so a collector killed mid-escalation resumes at the right step.
 */
export async function startEscalation(tx: Sql, incidentId: string, route: RouteRow, now: Date): Promise<boolean> {
  if (!route.escalation_policy_id && !route.reminder_minutes) return false
  const { rows } = await tx.query<{ steps: Array<{ afterMinutes: number }> }>(
    'SELECT steps FROM monitoring.escalation_policies WHERE id = $1',
    [route.escalation_policy_id],
  )
  const firstStep = rows[0]?.steps[0]
  const minutes = (value: number) => new Date(now.getTime() + value * 60_000)
  await tx.query(
    `INSERT INTO monitoring.incident_escalations
       (incident_id, route_id, organization_id, policy_id, next_step_at, reminder_minutes, next_reminder_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (incident_id, route_id) DO UPDATE
       SET policy_id = excluded.policy_id, round = 0, next_step = 0, next_step_at = excluded.next_step_at,
           reminder_minutes = excluded.reminder_minutes, next_reminder_at = excluded.next_reminder_at,
           reminders_sent = 0, stopped_at = NULL, stopped_reason = NULL, created_at = excluded.created_at`,
    [
      incidentId,
      route.id,
      route.organization_id,
      firstStep ? route.escalation_policy_id : null,
      firstStep ? minutes(firstStep.afterMinutes) : null,
      route.reminder_minutes,
      route.reminder_minutes ? minutes(route.reminder_minutes) : null,
      now,
    ],
  )
  return firstStep?.afterMinutes === 0
}

/**
 * An acknowledgement ends the escalation steps (reminders go on while the incident is open); a
 * resolution ends everything.
 */
export async function stopEscalations(tx: Sql, incidentId: string, reason: 'acknowledged' | 'resolved') {
  await tx.query(
    reason === 'resolved'
      ? `UPDATE monitoring.incident_escalations SET stopped_at = now(), stopped_reason = 'resolved', next_step_at = NULL
          WHERE incident_id = $1 AND stopped_at IS NULL`
      : `UPDATE monitoring.incident_escalations SET next_step_at = NULL, stopped_reason = 'acknowledged'
          WHERE incident_id = $1 AND stopped_at IS NULL`,
    [incidentId],
  )
}
