import type { GuardFastify } from '@guard/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { addStatusPageComponent } from '../services/status-pages/add-component.ts'
import { createStatusPage } from '../services/status-pages/create.ts'
import { deleteStatusPage } from '../services/status-pages/delete.ts'
import { getStatusPage } from '../services/status-pages/get.ts'
import { listStatusPages } from '../services/status-pages/list.ts'
import { orderStatusPageComponents } from '../services/status-pages/order-components.ts'
import { readPublicStatusPage } from '../services/status-pages/read-public.ts'
import { removeStatusPageComponent } from '../services/status-pages/remove-component.ts'
import {
  addDeviceInput,
  addDomainInput,
  addServiceInput,
  createStatusPageInput,
  orderComponentsInput,
  publicStatusPage,
  statusPageDetail,
  statusPageView,
  updateStatusPageInput,
} from '../services/status-pages/schemas.ts'
import { updateStatusPage } from '../services/status-pages/update.ts'
import { deleted, envelope, errorResponses, errorSchema, idParams, ok, rateLimitedSchema } from './common.ts'

const read = { access: { permission: 'status-pages:read' as const } }
const write = { access: { permission: 'status-pages:write' as const } }
const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })
const detail = { 200: envelope(statusPageDetail), ...errorResponses }
const componentParams = z.object({ id: z.string().min(1).max(64), componentId: z.string().min(1).max(64) })

export function statusPageRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/status-pages',
    {
      config: read,
      schema: {
        querystring: organizationQuery,
        response: { 200: envelope(z.array(statusPageView)), ...errorResponses },
      },
    },
    async (request) => ok(await listStatusPages(ctx, callerOf(request), request.query.organizationId)),
  )

  app.post(
    '/api/status-pages',
    {
      config: write,
      schema: {
        description: 'Creates a page; its slug is unique across the installation (409 when taken).',
        querystring: organizationQuery,
        body: createStatusPageInput,
        response: { 201: envelope(statusPageDetail), 409: errorSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await createStatusPage(ctx, callerOf(request), request.body, request.query.organizationId))),
  )

  app.get('/api/status-pages/:id', { config: read, schema: { params: idParams, response: detail } }, async (request) =>
    ok(await getStatusPage(ctx, callerOf(request), request.params.id)),
  )

  app.put(
    '/api/status-pages/:id',
    {
      config: write,
      schema: { params: idParams, body: updateStatusPageInput, response: { ...detail, 409: errorSchema } },
    },
    async (request) => ok(await updateStatusPage(ctx, callerOf(request), request.params.id, request.body)),
  )

  app.delete(
    '/api/status-pages/:id',
    { config: write, schema: { params: idParams, response: { 200: deleted, ...errorResponses } } },
    async (request) => {
      await deleteStatusPage(ctx, callerOf(request), request.params.id)
      return ok({ id: request.params.id, deleted: true as const })
    },
  )

  for (const [kind, body] of [
    ['domain', addDomainInput],
    ['service', addServiceInput],
    ['device', addDeviceInput],
  ] as const) {
    app.post(
      `/api/status-pages/:id/${kind}s`,
      {
        config: write,
        schema: {
          description: `Adds one of the organization's ${kind}s at the end of the page (409 when already on it).`,
          params: idParams,
          body,
          response: { 201: envelope(statusPageDetail), 409: errorSchema, ...errorResponses },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(ok(await addStatusPageComponent(ctx, callerOf(request), request.params.id, kind, request.body))),
    )
  }

  app.delete(
    '/api/status-pages/:id/components/:componentId',
    { config: write, schema: { params: componentParams, response: detail } },
    async (request) =>
      ok(await removeStatusPageComponent(ctx, callerOf(request), request.params.id, request.params.componentId)),
  )

  app.put(
    '/api/status-pages/:id/components/order',
    {
      config: write,
      schema: {
        description: 'Orders the components: componentIds lists every component of the page once, top first.',
        params: idParams,
        body: orderComponentsInput,
        response: detail,
      },
    },
    async (request) => ok(await orderStatusPageComponents(ctx, callerOf(request), request.params.id, request.body)),
  )
}

/**
 * Unauthenticated: counted per client IP in the `public` rate-limit class, served from a short
 * in-memory cache with an ETag, so browsers and CDNs revalidate with 304s.
 */
export function publicStatusPageRoutes(fastify: FastifyInstance, ctx: CollectorContext): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get(
    '/api/status-pages/:id/public',
    {
      schema: {
        description:
          'What visitors of a public page see (no authentication; `id` is the page slug). 404 for private or unknown pages. Send If-None-Match with the ETag for a 304.',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: {
          200: envelope(publicStatusPage),
          304: z.null().meta({ description: 'Not modified' }),
          404: errorSchema,
          429: rateLimitedSchema,
        },
      },
    },
    async (request, reply) => {
      const { page, etag } = await readPublicStatusPage(ctx, request.params.id)
      reply.header('ETag', etag)
      reply.header('Cache-Control', 'public, max-age=30, stale-while-revalidate=30')
      if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send(null)
      return ok(page)
    },
  )
}

export const matches = (header: string | undefined, etag: string): boolean =>
  header?.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag || candidate.trim() === '*') ===
  true
