import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { enforcePlan } from '../plans/enforce.ts'
import { DOMAIN_COLUMNS, toDomainRecord } from './find.ts'
import { scheduleDomain } from './schedule.ts'
import { type CreateDomainInput, createDomainInput, type DomainRecord } from './schemas.ts'

/**
 * Stores the domain, then publishes its schedule. Should the publish fail, the row stays and the
 * schedule is published again at the next collector start (see syncSchedules).
 */
export async function createDomain(
  ctx: CollectorContext,
  caller: Caller,
  body: CreateDomainInput,
  organization?: string,
): Promise<DomainRecord> {
  const input = createDomainInput.parse(body)
  const organizationId = organizationScope(caller, organization)
  const locations = ctx.env.GUARD_DEFAULT_LOCATIONS
  const monitor = { organizationId, adds: true, checkInterval: input.checkInterval, locations }
  const { rows } = await enforcePlan(ctx, monitor, (tx) =>
    tx.query<Parameters<typeof toDomainRecord>[0]>(
      `INSERT INTO monitoring.domains
       (id, organization_id, url, name, check_interval, timeout_seconds, is_api, auth_type, locations, tags,
        failure_threshold, quorum_percent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     RETURNING ${DOMAIN_COLUMNS}`,
      [
        newId(),
        organizationId,
        input.url,
        input.name ?? new URL(input.url).hostname,
        input.checkInterval,
        input.timeout,
        input.isApi,
        input.authType,
        locations,
        input.tags,
        input.failureThreshold,
        input.quorumPercent,
      ],
    ),
  )
  const domain = toDomainRecord(rows[0]!)
  await scheduleDomain(ctx.monitors, domain)
  return domain
}
