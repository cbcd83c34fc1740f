import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { recordChange } from '../activity/record-change.ts'
import { enforcePlan } from '../plans/enforce.ts'
import { admitMonitor } from './admit.ts'
import { sealCredentials, sealSecrets } from './credentials.ts'
import { MONITOR_COLUMNS, type MonitorRow, toMonitorRecord } from './find.ts'
import { scheduleMonitor } from './schedule.ts'
import { type MonitorInput, type MonitorRecord, monitorInput } from './schemas.ts'
import { assertThresholds } from './thresholds.ts'

/**
 * Stores the monitor, then publishes its schedule. Should the publish fail, the row stays and the
 * schedule is published again at the next collector start (see syncSchedules).
 */
export async function createMonitor({
  ctx,
  caller,
  input: body,
}: {
  ctx: CollectorContext
  caller: Caller
  input: MonitorInput
}): Promise<MonitorRecord> {
  const input = monitorInput.parse(body)
  assertThresholds(input)
  const organizationId = organizationScope(caller, input.organizationId)
  const locations = input.locations ?? ctx.env.GUARD_DEFAULT_LOCATIONS
  await admitMonitor(ctx, caller, { kind: input.kind, organizationId, checkInterval: input.checkInterval, locations })
  const sealed = input.auth
    ? sealCredentials(ctx.credentialKey, input.auth)
    : input.secrets
      ? sealSecrets(ctx.credentialKey, input.secrets)
      : null
  const plan = { organizationId, adds: true, checkInterval: input.checkInterval, locations }
  // A savepoint when the plan check already opened a transaction: the row and its activity line together.
  const { rows } = await enforcePlan(ctx, plan, (outer) =>
    outer.transaction(async (tx) => {
      const inserted = await tx.query<MonitorRow>(
        `INSERT INTO monitoring.monitors
       (id, organization_id, kind, name, protocol, target, is_api, auth_type, credentials, check_interval,
        timeout_seconds, enabled, locations, tags, failure_threshold, quorum_percent, degraded_above_ms, down_above_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
     RETURNING ${MONITOR_COLUMNS}`,
        [
          newId(),
          organizationId,
          input.kind,
          input.name,
          input.protocol ?? null,
          JSON.stringify(input.target),
          input.isApi,
          input.auth?.type ?? 'none',
          sealed,
          input.checkInterval,
          input.timeout,
          input.enabled,
          locations,
          input.tags,
          input.failureThreshold,
          input.quorumPercent,
          input.degradedAboveMs ?? null,
          input.downAboveMs ?? null,
        ],
      )
      const row = inserted.rows[0]!
      await recordChange(tx, { organizationId, kind: input.kind, action: 'created', id: row.id, name: row.name })
      return inserted
    }),
  )
  const monitor = toMonitorRecord(rows[0]!)
  await scheduleMonitor(ctx, monitor, sealed)
  return monitor
}
