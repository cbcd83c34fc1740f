import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { type GroupFilter, groupCondition, groupsFiltered, groupsOf } from '../groups/filter.ts'
import { tagCondition } from '../tags/match.ts'
import { DOMAIN_COLUMNS, type DomainRow, toDomainListRecord } from './find.ts'
import { domainMetrics, noMetrics } from './metrics.ts'
import type { AlternativeListItem, DomainListItem } from './schemas.ts'

export interface ListDomainsQuery {
  page: number
  limit: number
  offset?: number | undefined
  search?: string | undefined
  status?: string | undefined
  organization?: string | undefined
  /** Normalised tag selectors (tags/schemas.ts tagQuery): every one must match. */
  tags?: string[] | undefined
  groupId?: GroupFilter['groupId']
  includeSubgroups?: GroupFilter['includeSubgroups']
}

/** A list request with its group filter resolved to the groups whose members it keeps. */
type Matching = ListDomainsQuery & { groupIds: string[] | null }

export type DomainPage =
  | {
      shape: 'standard'
      items: DomainListItem[]
      pagination: { page: number; limit: number; total: number; totalPages: number }
    }
  | {
      shape: 'alternative'
      items: AlternativeListItem[]
      pagination: { total: number; limit: number; offset: number; has_more: boolean }
    }

const STANDARD_STATUSES = ['up', 'down', 'unknown']
const ALTERNATIVE_STATUSES = ['active', 'inactive', 'pending']

/**
 * Status filters run in SQL against the state machine's table, so paging happens in PostgreSQL
 * and the summary is read for one page only. `unknown` and `pending` mean "no result yet",
 * `inactive` a disabled domain (README "API decisions").
 */
function statusCondition(status: string | undefined): string {
  switch (status) {
    case 'up':
    case 'down':
      return 's.status = $3'
    case 'unknown':
      return 's.status IS NULL'
    case 'active':
      return 'd.enabled AND s.status IS NOT NULL'
    case 'inactive':
      return 'NOT d.enabled'
    case 'pending':
      return 'd.enabled AND s.status IS NULL'
    default:
      return 'TRUE'
  }
}

/** Search is a substring match: LIKE's wildcards in it match themselves. */
const likePattern = (search: string | undefined) => (search ? search.replace(/[\\%_]/g, '\\$&') : null)

/** The standard shape unless the request carries `offset`, which selects the alternative one. */
export async function listDomains(ctx: CollectorContext, caller: Caller, query: ListDomainsQuery): Promise<DomainPage> {
  const alternative = query.offset !== undefined
  const allowed = alternative ? ALTERNATIVE_STATUSES : STANDARD_STATUSES
  if (query.status !== undefined && !allowed.includes(query.status)) {
    throw new GuardError(
      'VALIDATION_ERROR',
      `status: must be one of ${allowed.join(', ')}${alternative ? ' when offset is given' : ' (active, inactive and pending go with offset)'}`,
    )
  }
  const organizationId = organizationScope(caller, query.organization)
  const offset = alternative ? (query.offset ?? 0) : (query.page - 1) * query.limit
  const filter: Matching = { ...query, groupIds: await groupsFiltered(ctx.sql, organizationId, query) }
  const parameters = matchingParameters(organizationId, filter)
  const columns = DOMAIN_COLUMNS.split(', ')
    .map((column) => `d.${column}`)
    .join(', ')
  // The page and the total apart: a window count would make PostgreSQL visit every matching monitor
  // for each page, where the page alone is a range of monitors_listing_idx.
  const [{ rows }, total] = await Promise.all([
    ctx.sql.query<DomainRow>(
      `SELECT ${columns}
         FROM monitoring.domains d LEFT JOIN monitoring.monitor_state s ON s.monitor_id = d.id
        WHERE ${matching(filter)}
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT $${parameters.length + 1} OFFSET $${parameters.length + 2}`,
      [...parameters, query.limit, offset],
    ),
    countDomains(ctx, organizationId, filter),
  ])
  const domains = rows.map(toDomainListRecord)
  const ids = domains.map((domain) => domain.id)
  const [metrics, groups] = await Promise.all([domainMetrics(ctx.sql, ids), groupsOf(ctx.sql, 'monitors', ids)])
  if (alternative) {
    return {
      shape: 'alternative',
      items: domains.map((domain) => {
        const m = metrics.get(domain.id) ?? noMetrics
        return {
          id: domain.id,
          url: domain.url,
          name: domain.name,
          status: !domain.enabled ? 'inactive' : m.status === 'unknown' ? 'pending' : 'active',
          check_interval: domain.checkInterval,
          last_check: m.lastCheck,
          uptime_percentage: m.uptimePercentage,
          response_time_ms: m.responseTime,
          ssl_expires_at: m.certificate?.expiresAt ?? null,
          tags: domain.tags,
          group_id: groups.get(domain.id) ?? null,
          created_at: domain.createdAt,
          updated_at: domain.updatedAt,
        }
      }),
      pagination: { total, limit: query.limit, offset, has_more: offset + rows.length < total },
    }
  }
  return {
    shape: 'standard',
    items: domains.map((domain) => {
      const { status, uptimePercentage, responseTime, lastError, failingLocations } =
        metrics.get(domain.id) ?? noMetrics
      return {
        id: domain.id,
        url: domain.url,
        name: domain.name,
        status,
        enabled: domain.enabled,
        uptimePercentage,
        responseTime,
        createdAt: domain.createdAt,
        lastError,
        failingLocations,
        tags: domain.tags,
        groupId: groups.get(domain.id) ?? null,
      }
    }),
    pagination: { page: query.page, limit: query.limit, total, totalPages: Math.ceil(total / query.limit) },
  }
}

/** The group condition's parameter follows the tags'. */
const groupMatching = (query: Matching) =>
  groupCondition('d.id', 'monitors', query.groupIds, 4 + tagCondition('d.tags', query.tags ?? [], 4).parameters.length)

/** The filters of a list request, on parameters $1 to $3, the tags' from $4, then the group's (see matchingParameters). */
const matching = (query: Matching) =>
  `d.organization_id = $1
   AND ($2::text IS NULL OR d.name ILIKE '%' || $2 || '%' OR d.url ILIKE '%' || $2 || '%')
   AND ($3::text IS NULL OR ${statusCondition(query.status)})
   AND ${tagCondition('d.tags', query.tags ?? [], 4).sql}
   AND ${groupMatching(query).sql}`

const matchingParameters = (organizationId: string, query: Matching) => [
  organizationId,
  likePattern(query.search),
  query.status ?? null,
  ...tagCondition('d.tags', query.tags ?? [], 4).parameters,
  ...groupMatching(query).parameters,
]

async function countDomains(ctx: CollectorContext, organizationId: string, query: Matching): Promise<number> {
  const { rows } = await ctx.sql.query<{ total: string }>(
    `SELECT count(*) AS total
       FROM monitoring.domains d LEFT JOIN monitoring.monitor_state s ON s.monitor_id = d.id
      WHERE ${matching(query)}`,
    matchingParameters(organizationId, query),
  )
  return Number(rows[0]?.total ?? 0)
}
