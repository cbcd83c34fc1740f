import type { Caller, CollectorContext } from '../../context.ts'
import { dependencyDetailOf } from '../dependencies/detail.ts'
import { groupsOf } from '../groups/filter.ts'
import { findDomain } from './find.ts'
import { domainMetrics, noMetrics } from './metrics.ts'
import { readRegistration } from './registration/read-registration.ts'
import type { DomainDetail } from './schemas.ts'

/** The spec's detail plus the check's options, locations, why it is failing and its registration expiry (never credentials). */
export async function getDomain(ctx: CollectorContext, caller: Caller, id: string): Promise<DomainDetail> {
  const domain = await findDomain(ctx.sql, caller, id)
  const [metrics, registration, dependencies, groups] = await Promise.all([
    domainMetrics(ctx.sql, [id]),
    readRegistration(ctx.sql, domain.url),
    dependencyDetailOf(ctx.sql, id),
    groupsOf(ctx.sql, 'monitors', [id]),
  ])
  return {
    id: domain.id,
    url: domain.url,
    name: domain.name,
    createdAt: domain.createdAt,
    checkInterval: domain.checkInterval,
    enabled: domain.enabled,
    ...(metrics.get(id) ?? noMetrics),
    registration,
    timeout: domain.timeout,
    locations: domain.locations,
    isApi: domain.isApi,
    authType: domain.authType,
    credentialsSet: domain.credentialsSet,
    ...(domain.downAboveMs === undefined ? {} : { downAboveMs: domain.downAboveMs }),
    ...domain.options,
    ...dependencies,
    groupId: groups.get(id) ?? null,
  }
}
