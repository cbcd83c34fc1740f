import type { Caller, CollectorContext } from '../../context.ts'
import { findDomains } from './find.ts'
import { domainMetrics, noMetrics } from './metrics.ts'
import type { DomainListItem } from './schemas.ts'

export interface ListDomainsQuery {
  page: number
  limit: number
  search?: string | undefined
  status?: DomainListItem['status'] | undefined
}

export interface DomainPage {
  items: DomainListItem[]
  pagination: { page: number; limit: number; total: number; totalPages: number }
}

/** Status lives in ClickHouse and the rows in PostgreSQL, so the status filter applies before paging. */
export async function listDomains(ctx: CollectorContext, caller: Caller, query: ListDomainsQuery): Promise<DomainPage> {
  const domains = await findDomains(ctx.sql, caller, { search: query.search })
  const metrics = await domainMetrics(
    ctx.timeseries,
    caller.organizationId,
    domains.map((domain) => domain.id),
  )
  const items = domains
    .map((domain) => {
      const { status, uptimePercentage, responseTime } = metrics.get(domain.id) ?? noMetrics
      return {
        id: domain.id,
        url: domain.url,
        name: domain.name,
        status,
        uptimePercentage,
        responseTime,
        createdAt: domain.createdAt,
      }
    })
    .filter((item) => query.status === undefined || item.status === query.status)
  const start = (query.page - 1) * query.limit
  return {
    items: items.slice(start, start + query.limit),
    pagination: {
      page: query.page,
      limit: query.limit,
      total: items.length,
      totalPages: Math.ceil(items.length / query.limit),
    },
  }
}
