import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { createDomain } from '../services/domains/create.ts'
import { deleteDomain } from '../services/domains/delete.ts'
import { fetchTitle } from '../services/domains/fetch-title.ts'
import { getDomain } from '../services/domains/get.ts'
import { domainHistory } from '../services/domains/history.ts'
import { domainIcon } from '../services/domains/icon.ts'
import { listDomains } from '../services/domains/list.ts'
import { domainLocations } from '../services/domains/locations.ts'
import { organizationDomainStats } from '../services/domains/organization-stats.ts'
import {
  alternativeListItem,
  createDomainInput,
  domainDetail,
  domainListItem,
  domainStats,
  domainStatus,
  domainSummary,
  historyEntry,
  lifecycleStatus,
  locationPoint,
  organizationDomainStats as organizationStatsSchema,
  statsPeriod,
  timeRange,
  trendEntry,
  updateDomainInput,
} from '../services/domains/schemas.ts'
import { domainStats as computeStats } from '../services/domains/stats.ts'
import { domainSummary as computeSummary } from '../services/domains/summary.ts'
import { responseTimeTrend } from '../services/domains/trend.ts'
import { updateDomain } from '../services/domains/update.ts'
import { groupQuery } from '../services/groups/filter.ts'
import { tagQuery } from '../services/tags/schemas.ts'
import { deleted, envelope, errorResponses, errorSchema, idParams, ok } from './common.ts'
import { monitorLatencyRoute } from './monitor-latency.ts'

const read = { access: { permission: 'domains:read' as const } }
/** Reads whose response only a write or an ingested result can change (README "Read cache"). */
const cachedRead = { ...read, readCache: true }
/** Cached until the monitor's own results (or a write) change it. */
const monitorRead = { ...read, readCache: 'monitor' as const }
const write = { access: { permission: 'domains:write' as const } }
const windowQuery = z.object({
  range: timeRange.default('24h'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
})
const organizationQuery = z.object({ organization: z.string().max(64).optional() })
const domainCreated = z.object({
  id: z.string(),
  url: z.string(),
  name: z.string(),
  checkInterval: z.number(),
  enabled: z.boolean(),
  createdAt: z.string(),
})
const standardList = envelope(z.array(domainListItem)).extend({
  pagination: z.object({ page: z.number(), limit: z.number(), total: z.number(), totalPages: z.number() }),
})
const alternativeList = z.object({
  data: z.array(alternativeListItem),
  pagination: z.object({ total: z.number(), limit: z.number(), offset: z.number(), has_more: z.boolean() }),
})

export function domainRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/domains',
    {
      config: cachedRead,
      schema: {
        description:
          'Lists domains. Without `offset`: the standard shape (`success`, `data`, `pagination` with page/limit/total/totalPages; status up, down, unknown). With `offset`: the alternative shape (`data`, `pagination` with total/limit/offset/has_more; status active, inactive, pending).',
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(1_000_000).default(1),
          limit: z.coerce.number().int().min(1).max(200).default(20),
          offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
          search: z.string().max(200).optional(),
          status: z.union([domainStatus, lifecycleStatus]).optional(),
          organization: z.string().max(64).optional(),
          tag: tagQuery,
          ...groupQuery,
        }),
        response: { 200: z.union([standardList, alternativeList]), ...errorResponses },
      },
    },
    async (request) => {
      const page = await listDomains(ctx, callerOf(request), { ...request.query, tags: request.query.tag })
      if (page.shape === 'alternative') return { data: page.items, pagination: page.pagination }
      return { success: true as const, data: page.items, pagination: page.pagination }
    },
  )

  app.post(
    '/api/domains',
    {
      config: write,
      schema: {
        description:
          'Creates a domain: an HTTP(S) check of `url` with its options (method, headers, body, expectedStatus, keyword/keywordAbsent, regex, jsonPath, followRedirects, degradedAboveMs, ignoreTlsErrors), `locations`, and write-only `credentials` for `authType` basic or bearer.',
        querystring: organizationQuery,
        body: createDomainInput,
        response: { 201: envelope(domainCreated), ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request)
      const domain = await createDomain({
        ctx,
        caller,
        input: { ...request.body, organization: request.query.organization },
      })
      const { id, url, name, checkInterval, enabled, createdAt } = domain
      return reply.status(201).send(ok({ id, url, name, checkInterval, enabled, createdAt }))
    },
  )

  app.get(
    '/api/domains/stats',
    {
      config: cachedRead,
      schema: {
        querystring: organizationQuery,
        response: { 200: envelope(organizationStatsSchema), ...errorResponses },
      },
    },
    async (request) => ok(await organizationDomainStats(ctx, callerOf(request), request.query.organization)),
  )

  app.get(
    '/api/domains/response-times',
    {
      config: cachedRead,
      schema: {
        description:
          "The response-time trend of every domain of the organization (the spec leaves this operation's path open).",
        querystring: organizationQuery.extend({ range: timeRange.default('24h') }),
        response: { 200: envelope(z.array(trendEntry)), ...errorResponses },
      },
    },
    async (request) => ok(await responseTimeTrend(ctx, callerOf(request), request.query)),
  )

  app.get(
    '/api/domains/fetch-title',
    {
      config: { ...read, bulk: true },
      schema: {
        querystring: z.object({
          url: z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' }).max(2048),
        }),
        response: {
          200: envelope(z.object({ title: z.string(), url: z.string() })),
          ...errorResponses,
          422: errorSchema,
        },
      },
    },
    async (request) => ok(await fetchTitle(ctx, request.query.url)),
  )

  app.get(
    '/api/domains/:id',
    { config: monitorRead, schema: { params: idParams, response: { 200: envelope(domainDetail), ...errorResponses } } },
    async (request) => ok(await getDomain(ctx, callerOf(request), request.params.id)),
  )

  app.put(
    '/api/domains/:id',
    {
      config: write,
      schema: {
        params: idParams,
        body: updateDomainInput,
        response: { 200: envelope(domainDetail), ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request)
      await updateDomain({ ctx, caller, input: { ...request.body, id: request.params.id } })
      return ok(await getDomain(ctx, caller, request.params.id))
    },
  )

  app.delete(
    '/api/domains/:id',
    { config: write, schema: { params: idParams, response: { 200: deleted, ...errorResponses } } },
    async (request) => {
      await deleteDomain({ ctx, caller: callerOf(request), input: { id: request.params.id } })
      return ok({ id: request.params.id, deleted: true as const })
    },
  )

  app.get(
    '/api/domains/:id/stats',
    {
      config: monitorRead,
      schema: {
        params: idParams,
        querystring: z.object({ period: statsPeriod.default('30d') }),
        response: { 200: envelope(domainStats), ...errorResponses },
      },
    },
    async (request) => ok(await computeStats(ctx, callerOf(request), request.params.id, request.query.period)),
  )

  app.get(
    '/api/domains/:id/summary',
    {
      config: monitorRead,
      schema: { params: idParams, response: { 200: envelope(domainSummary), ...errorResponses } },
    },
    async (request) => ok(await computeSummary(ctx, callerOf(request), request.params.id)),
  )

  app.get(
    '/api/domains/:id/icon',
    {
      // It fetches the domain's page now: outbound work on demand, like fetch-title.
      config: { ...read, bulk: true },
      schema: {
        params: idParams,
        response: { 200: envelope(z.object({ iconUrl: z.string() })), ...errorResponses, 422: errorSchema },
      },
    },
    async (request) => ok(await domainIcon(ctx, callerOf(request), request.params.id)),
  )

  app.get(
    '/api/domains/:id/monitoring/history',
    {
      config: monitorRead,
      schema: {
        params: idParams,
        querystring: windowQuery,
        response: { 200: envelope(z.array(historyEntry)), ...errorResponses },
      },
    },
    async (request) => ok(await domainHistory(ctx, callerOf(request), request.params.id, request.query)),
  )

  app.get(
    '/api/domains/:id/monitoring/locations',
    {
      config: monitorRead,
      schema: {
        params: idParams,
        querystring: windowQuery,
        response: { 200: envelope(z.record(z.string(), z.array(locationPoint))), ...errorResponses },
      },
    },
    async (request) => ok(await domainLocations(ctx, callerOf(request), request.params.id, request.query)),
  )

  monitorLatencyRoute(app, ctx, {
    path: '/api/domains/:id/monitoring/latency',
    kind: 'domain',
    permission: 'domains:read',
  })
}
