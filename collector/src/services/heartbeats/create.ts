import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { recordChange } from '../activity/record-change.ts'
import { enforcePlan } from '../plans/enforce.ts'
import { findHeartbeat } from './find.ts'
import { monitorRowFields } from './monitor-row.ts'
import { type HeartbeatSchedule, nextExpected } from './schedule.ts'
import { type CreateHeartbeatInput, createHeartbeatInput, type HeartbeatRecord } from './schemas.ts'
import { generatePingToken } from './token.ts'

/**
 * Creates a heartbeat monitor: a monitors row of kind `heartbeat` (state, incidents, plan count work
 * on it as on any monitor) and its schedule and ping token. The first ping is expected one period
 * (or at the first cron time) from now.
 */
export async function createHeartbeat({
  ctx,
  caller,
  input: body,
  now = new Date(),
}: {
  ctx: CollectorContext
  caller: Caller
  input: CreateHeartbeatInput & { organizationId?: string | undefined }
  now?: Date
}): Promise<HeartbeatRecord> {
  const { organizationId: requested, ...fields } = body
  const input = createHeartbeatInput.parse(fields)
  const organizationId = organizationScope(caller, requested)
  const schedule: HeartbeatSchedule =
    input.cron !== undefined ? { cron: input.cron, timezone: input.timezone } : { every: input.every! }
  const token = generatePingToken(ctx.credentialKey)
  const id = newId()
  const row = monitorRowFields(schedule, now)
  await enforcePlan(ctx, { organizationId, adds: true }, (outer) =>
    outer.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO monitoring.monitors
           (id, organization_id, kind, name, target, check_interval, timeout_seconds, enabled, locations, tags,
            failure_threshold, quorum_percent)
         VALUES ($1, $2, 'heartbeat', $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          id,
          organizationId,
          input.name,
          row.target,
          row.checkInterval,
          row.timeout,
          input.enabled,
          row.locations,
          input.tags,
          row.failureThreshold,
          row.quorumPercent,
        ],
      )
      await tx.query(
        `INSERT INTO monitoring.heartbeats
           (monitor_id, token_hash, token_sealed, every_seconds, cron, timezone, grace_seconds, max_duration_seconds,
            next_due_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          id,
          token.hash,
          token.sealed,
          input.every ?? null,
          input.cron ?? null,
          input.timezone,
          input.grace,
          input.maxDuration ?? null,
          nextExpected(schedule, now),
        ],
      )
      await recordChange(tx, { organizationId, kind: 'heartbeat', action: 'created', id, name: input.name })
    }),
  )
  return findHeartbeat(ctx.sql, ctx.credentialKey, caller, id)
}
