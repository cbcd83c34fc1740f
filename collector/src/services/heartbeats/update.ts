import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { findHeartbeat, scheduleOf } from './find.ts'
import { monitorRowFields } from './monitor-row.ts'
import { cronProblem, nextExpected } from './schedule.ts'
import { type HeartbeatRecord, type UpdateHeartbeatInput, updateHeartbeatInput } from './schemas.ts'

/**
 * Changes the given fields. A new schedule expects the next ping from the last ping (or now, when
 * none came yet), so changing a schedule never declares a run missed in the past.
 */
export async function updateHeartbeat({
  ctx,
  caller,
  input,
  now = new Date(),
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string; changes: UpdateHeartbeatInput }
  now?: Date
}): Promise<HeartbeatRecord> {
  const changes = updateHeartbeatInput.parse(input.changes)
  const current = await findHeartbeat(ctx.sql, ctx.credentialKey, caller, input.id)
  const every = changes.every ?? (changes.cron !== undefined ? null : current.every)
  const cron = changes.cron ?? (changes.every !== undefined ? null : current.cron)
  const timezone = changes.timezone ?? current.timezone
  if (cron !== null) {
    const problem = cronProblem(cron, timezone)
    if (problem) throw new GuardError('VALIDATION_ERROR', `cron: ${problem}`)
  }
  const schedule = scheduleOf({ every, cron, timezone })
  const rescheduled = every !== current.every || cron !== current.cron || timezone !== current.timezone
  const nextDueAt = rescheduled
    ? nextExpected(schedule, current.lastPingAt ? new Date(current.lastPingAt) : now)
    : new Date(current.nextDueAt)
  const row = monitorRowFields(schedule, now)
  await ctx.sql.transaction(async (tx) => {
    await tx.query(
      `UPDATE monitoring.monitors SET name = $3, tags = $4, enabled = $5, check_interval = $6, updated_at = now()
        WHERE id = $1 AND organization_id = $2`,
      [
        current.id,
        current.organizationId,
        changes.name ?? current.name,
        changes.tags ?? current.tags,
        changes.enabled ?? current.enabled,
        row.checkInterval,
      ],
    )
    await tx.query(
      `UPDATE monitoring.heartbeats
          SET every_seconds = $2, cron = $3, timezone = $4, grace_seconds = $5, max_duration_seconds = $6,
              next_due_at = $7
        WHERE monitor_id = $1`,
      [
        current.id,
        every,
        cron,
        timezone,
        changes.grace ?? current.grace,
        changes.maxDuration === undefined ? current.maxDuration : changes.maxDuration,
        // Re-enabling starts a fresh wait rather than reporting the time it was off as missed.
        changes.enabled === true && !current.enabled ? nextExpected(schedule, now) : nextDueAt,
      ],
    )
  })
  return findHeartbeat(ctx.sql, ctx.credentialKey, caller, current.id)
}
