import { notFound } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { timingAfterUpdate } from '../monitor-timing.ts'
import { enforcePlan } from '../plans/enforce.ts'
import { DOMAIN_COLUMNS, type DomainRow, findDomain, toDomainRecord } from './find.ts'
import { scheduleDomain } from './schedule.ts'
import type { DomainRecord, UpdateDomainInput } from './schemas.ts'

/** Changes the given fields only; the schedule is published again so probes follow within seconds. */
export async function updateDomain(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
  input: UpdateDomainInput,
): Promise<DomainRecord> {
  const current = await findDomain(ctx.sql, caller, id)
  const { checkInterval, timeout } = timingAfterUpdate(current, input)
  const monitor = { organizationId: current.organizationId, adds: false, checkInterval: input.checkInterval }
  const { rows } = await enforcePlan(ctx, monitor, (tx) =>
    tx.query<DomainRow>(
      `UPDATE monitoring.domains
        SET name = $3, check_interval = $4, timeout_seconds = $5, enabled = $6, tags = $7,
            failure_threshold = coalesce($8, failure_threshold), quorum_percent = coalesce($9, quorum_percent),
            updated_at = now()
      WHERE id = $1 AND organization_id = $2
      RETURNING ${DOMAIN_COLUMNS}`,
      [
        id,
        current.organizationId,
        input.name ?? current.name,
        checkInterval,
        timeout,
        input.enabled ?? current.enabled,
        input.tags ?? current.tags,
        input.failureThreshold ?? null,
        input.quorumPercent ?? null,
      ],
    ),
  )
  if (!rows[0]) throw notFound('Domain')
  const domain = toDomainRecord(rows[0])
  await scheduleDomain(ctx.monitors, domain)
  return domain
}
