import { notFound } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { timingAfterUpdate } from '../monitor-timing.ts'
import { enforcePlan } from '../plans/enforce.ts'
import { admitMonitor } from './admit.ts'
import { sealCredentials, sealSecrets } from './credentials.ts'
import { findMonitor, findSealedCredentials, MONITOR_COLUMNS, type MonitorRow, toMonitorRecord } from './find.ts'
import { scheduleMonitor } from './schedule.ts'
import { type MonitorChanges, type MonitorKind, type MonitorRecord, monitorChanges } from './schemas.ts'
import { assertThresholds } from './thresholds.ts'

/** Changes the given fields only; the schedule is published again so probes follow within seconds. */
export async function updateMonitor({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { kind: MonitorKind; id: string; changes: MonitorChanges }
}): Promise<MonitorRecord> {
  const changes = monitorChanges.parse(input.changes)
  const current = await findMonitor(ctx.sql, caller, input.kind, input.id)
  const { checkInterval, timeout } = timingAfterUpdate(current, changes)
  const locations = changes.locations ?? current.locations
  // `null` clears a threshold, an absent one keeps the stored value.
  const degradedAboveMs = changes.degradedAboveMs === undefined ? current.degradedAboveMs : changes.degradedAboveMs
  const downAboveMs = changes.downAboveMs === undefined ? current.downAboveMs : changes.downAboveMs
  assertThresholds({ degradedAboveMs, downAboveMs, timeout, target: changes.target ?? current.target })
  await admitMonitor(ctx, caller, {
    kind: current.kind,
    organizationId: current.organizationId,
    checkInterval,
    locations,
    currentId: current.id,
  })
  const sealed = changes.auth
    ? sealCredentials(ctx.credentialKey, changes.auth)
    : changes.secrets
      ? sealSecrets(ctx.credentialKey, changes.secrets)
      : changes.auth === null || changes.secrets === null
        ? null
        : await findSealedCredentials(ctx.sql, current.id)
  const authType =
    changes.auth !== undefined
      ? (changes.auth?.type ?? 'none')
      : changes.secrets !== undefined
        ? 'none'
        : current.authType
  // Only what this write sets is held against the plan: a rename is not refused for an old interval.
  const plan = {
    organizationId: current.organizationId,
    adds: false,
    checkInterval: changes.checkInterval,
    locations: changes.locations,
  }
  const { rows } = await enforcePlan(ctx, plan, (tx) =>
    tx.query<MonitorRow>(
      `UPDATE monitoring.monitors
        SET name = $3, protocol = $4, target = $5, is_api = $6, auth_type = $7, credentials = $8,
            check_interval = $9, timeout_seconds = $10, enabled = $11, locations = $12, tags = $13,
            failure_threshold = $14, quorum_percent = $15, degraded_above_ms = $16, down_above_ms = $17,
            updated_at = now()
      WHERE id = $1 AND organization_id = $2
      RETURNING ${MONITOR_COLUMNS}`,
      [
        current.id,
        current.organizationId,
        changes.name ?? current.name,
        changes.protocol ?? current.protocol,
        JSON.stringify(changes.target ?? current.target),
        changes.isApi ?? current.isApi,
        authType,
        sealed,
        checkInterval,
        timeout,
        changes.enabled ?? current.enabled,
        locations,
        changes.tags ?? current.tags,
        changes.failureThreshold ?? current.failureThreshold,
        changes.quorumPercent ?? current.quorumPercent,
        degradedAboveMs,
        downAboveMs,
      ],
    ),
  )
  if (!rows[0]) throw notFound(input.kind === 'domain' ? 'Domain' : 'Service')
  const monitor = toMonitorRecord(rows[0])
  await scheduleMonitor(ctx, monitor, sealed)
  return monitor
}
