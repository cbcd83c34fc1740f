import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { createDomain } from '../services/domains/create.ts'
import { getDomain } from '../services/domains/get.ts'
import { domainHistory } from '../services/domains/history.ts'
import { listDomains } from '../services/domains/list.ts'
import { domainLocations } from '../services/domains/locations.ts'
import {
  createDomainInput,
  domainDetail,
  domainListItem,
  domainStatus,
  historyEntry,
  locationPoint,
  timeRange,
} from '../services/domains/schemas.ts'

const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data })
const idParams = z.object({ id: z.string().min(1).max(64) })
const windowQuery = z.object({
  range: timeRange.default('24h'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
})

export function domainRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/domains',
    {
      schema: {
        querystring: z.object({
          page: z.coerce.number().int().min(1).default(1),
          limit: z.coerce.number().int().min(1).max(200).default(20),
          search: z.string().max(200).optional(),
          status: domainStatus.optional(),
          organization: z.string().optional(),
        }),
        response: {
          200: envelope(z.array(domainListItem)).extend({
            pagination: z.object({ page: z.number(), limit: z.number(), total: z.number(), totalPages: z.number() }),
          }),
        },
      },
    },
    async (request) => {
      const page = await listDomains(ctx, callerOf(request), request.query)
      return { success: true as const, data: page.items, pagination: page.pagination }
    },
  )

  app.post(
    '/api/domains',
    {
      schema: {
        body: createDomainInput,
        response: {
          201: envelope(
            z.object({
              id: z.string(),
              url: z.string(),
              name: z.string(),
              checkInterval: z.number(),
              enabled: z.boolean(),
              createdAt: z.string(),
            }),
          ),
        },
      },
    },
    async (request, reply) => {
      const domain = await createDomain(ctx, callerOf(request), request.body)
      const { id, url, name, checkInterval, enabled, createdAt } = domain
      return reply
        .status(201)
        .send({ success: true as const, data: { id, url, name, checkInterval, enabled, createdAt } })
    },
  )

  app.get(
    '/api/domains/:id',
    { schema: { params: idParams, response: { 200: envelope(domainDetail) } } },
    async (request) => ({ success: true as const, data: await getDomain(ctx, callerOf(request), request.params.id) }),
  )

  app.get(
    '/api/domains/:id/monitoring/history',
    { schema: { params: idParams, querystring: windowQuery, response: { 200: envelope(z.array(historyEntry)) } } },
    async (request) => ({
      success: true as const,
      data: await domainHistory(ctx, callerOf(request), request.params.id, request.query),
    }),
  )

  app.get(
    '/api/domains/:id/monitoring/locations',
    {
      schema: {
        params: idParams,
        querystring: windowQuery,
        response: { 200: envelope(z.record(z.string(), z.array(locationPoint))) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await domainLocations(ctx, callerOf(request), request.params.id, request.query),
    }),
  )
}
