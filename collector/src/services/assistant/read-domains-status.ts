import type { CollectorContext } from '../../context.ts'
import { requirePermission } from '../access/require.ts'
import { listDomains } from '../domains/list.ts'
import { organizationDomainStats } from '../domains/organization-stats.ts'
import { assertTagsSignedIn } from '../tags/schemas.ts'
import { type Audience, weightedMean } from './audience.ts'
import { isWorking, latestUptime, readPublicView } from './public-view.ts'
import type { DomainsStatusResult } from './schemas.ts'

const DOMAINS_PER_ORGANIZATION = 100

/**
 * Each domain's state with 24-hour averages, and a summary over all of them; public: the domains
 * the public status pages show (their latest day's uptime, no address or response time).
 */
export async function readDomainsStatus({
  ctx,
  audience,
  tags = [],
}: {
  ctx: CollectorContext
  audience: Audience
  tags?: string[]
}): Promise<DomainsStatusResult> {
  assertTagsSignedIn(audience, tags)
  if (audience.kind === 'public') {
    const domains = (await readPublicView(ctx, audience.organizationId)).components
      .filter((component) => component.kind === 'domain')
      .map((component) => ({
        id: null,
        organizationId: component.organizationId,
        name: component.name,
        url: null,
        status: component.status,
        responseTime: null,
        uptime: latestUptime(component),
      }))
    const uptimes = domains.flatMap((domain) => (domain.uptime === null ? [] : [domain.uptime]))
    return {
      summary: {
        total: domains.length,
        up: domains.filter((domain) => isWorking(domain.status)).length,
        down: domains.filter((domain) => domain.status === 'down').length,
        avgResponseTime: null,
        uptime: weightedMean(uptimes.map((uptime) => [uptime, 1])),
      },
      domains,
    }
  }
  const parts = await Promise.all(
    audience.callers.map(async (caller) => {
      requirePermission(caller, 'domains:read')
      const [stats, page] = await Promise.all([
        organizationDomainStats(ctx, caller, caller.organizationId, tags),
        listDomains(ctx, caller, {
          page: 1,
          limit: DOMAINS_PER_ORGANIZATION,
          organization: caller.organizationId,
          tags,
        }),
      ])
      const items = page.shape === 'standard' ? page.items : []
      return {
        stats,
        domains: items.map((domain) => ({
          id: domain.id,
          organizationId: caller.organizationId,
          name: domain.name,
          url: domain.url,
          status: domain.status,
          responseTime: domain.responseTime,
          uptime: domain.uptimePercentage,
        })),
      }
    }),
  )
  return {
    summary: {
      total: parts.reduce((sum, { stats }) => sum + stats.total, 0),
      up: parts.reduce((sum, { stats }) => sum + stats.up, 0),
      down: parts.reduce((sum, { stats }) => sum + stats.down, 0),
      avgResponseTime: weightedMean(parts.map(({ stats }) => [stats.avgResponseTime, stats.total])),
      uptime: weightedMean(parts.map(({ stats }) => [stats.avgUptime, stats.total])),
    },
    domains: parts.flatMap(({ domains }) => domains),
  }
}
