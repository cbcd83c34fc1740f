import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { pagePathOf } from '../plugins/status-page-access.ts'
import { historyMonth, readIncidentHistory } from '../services/status-pages/history.ts'
import { langQuery, viewLocale } from '../services/status-pages/i18n/locales.ts'
import { pageText } from '../services/status-pages/i18n/page-text.ts'
import { incidentKeyString, readPublicIncident } from '../services/status-pages/incident-page.ts'
import { renderHistoryHtml, renderIncidentPageHtml } from '../services/status-pages/render-history.ts'
import { logoOrigin } from '../services/status-pages/render-html.ts'
import { publicIncident } from '../services/status-pages/schemas.ts'
import { envelope, errorSchema, ok, rateLimitedSchema } from './common.ts'
import {
  ASSET_BASE,
  contentSecurityPolicy,
  PUBLIC_CACHE,
  publicHeaders,
  sendPublic,
  slugParams,
  tagOf,
} from './status-pages.ts'

const monthQuery = z.object({ month: historyMonth.optional() })
const historyQuery = monthQuery.extend(langQuery.shape)
const keyParams = z.object({ slug: z.string().min(1).max(64), key: incidentKeyString })
const publicErrors = { 400: errorSchema, 404: errorSchema, 429: rateLimitedSchema }
const historyView = z.object({
  month: z.string(),
  older: z.string().nullable().meta({ description: 'the nearest earlier month with incidents' }),
  newer: z.string().nullable().meta({ description: 'the nearest later month with incidents' }),
  incidents: z.array(publicIncident),
})

/**
 * A public page's incident history by UTC month and each incident at its permanent address, as HTML
 * and JSON: unauthenticated, counted per client IP like the page, 404 where the page is.
 */
export function statusPageHistoryRoutes(fastify: FastifyInstance, ctx: CollectorContext): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get(
    '/status/:slug/history',
    {
      onSend: publicHeaders,
      schema: {
        description:
          "A public page's incidents that started in one UTC month (`month`, default the current one), newest first.",
        params: slugParams,
        querystring: historyQuery,
        produces: ['text/html'],
        response: { 200: z.string(), 304: z.null(), ...publicErrors },
      },
    },
    async (request, reply) => {
      const { lang, month } = request.query
      const history = await readIncidentHistory({ ctx, input: { slug: request.params.slug, month } })
      const text = pageText(viewLocale(history.answer.page.locale, lang))
      const html = renderHistoryHtml(history, ASSET_BASE, pagePathOf(request, request.params.slug), text)
      reply.header('Content-Security-Policy', contentSecurityPolicy(logoOrigin(history.answer.page)))
      return sendPublic(request, reply, {
        etag: tagOf('y', html),
        cache: PUBLIC_CACHE,
        type: 'text/html; charset=utf-8',
        body: () => html,
      })
    },
  )

  app.get(
    '/status/:slug/incidents/:key',
    {
      onSend: publicHeaders,
      schema: {
        description: 'One incident of a public page with its public timeline; `key` is its `key` in the public answer.',
        params: keyParams,
        querystring: langQuery,
        produces: ['text/html'],
        response: { 200: z.string(), 304: z.null(), ...publicErrors },
      },
    },
    async (request, reply) => {
      const { answer, incident } = await readPublicIncident({ ctx, input: request.params })
      const text = pageText(viewLocale(answer.page.locale, request.query.lang))
      const path = pagePathOf(request, request.params.slug)
      const html = renderIncidentPageHtml(answer.page, incident, ASSET_BASE, path, text)
      reply.header('Content-Security-Policy', contentSecurityPolicy(logoOrigin(answer.page)))
      return sendPublic(request, reply, {
        etag: tagOf('i', html),
        cache: PUBLIC_CACHE,
        type: 'text/html; charset=utf-8',
        body: () => html,
      })
    },
  )

  app.get(
    '/api/status-pages/:id/public/history',
    {
      onSend: publicHeaders,
      schema: {
        description: 'The incident history of a public page by UTC month, as JSON (`id` is the page slug).',
        params: z.object({ id: z.string().min(1).max(64) }),
        querystring: monthQuery,
        response: { 200: envelope(historyView), ...publicErrors },
      },
    },
    async (request, reply) => {
      const { month, older, newer, incidents } = await readIncidentHistory({
        ctx,
        input: { slug: request.params.id, ...request.query },
      })
      reply.header('Cache-Control', PUBLIC_CACHE)
      return ok({ month, older, newer, incidents })
    },
  )

  app.get(
    '/api/status-pages/:id/public/incidents/:key',
    {
      onSend: publicHeaders,
      schema: {
        description: 'One incident of a public page with its public timeline, as JSON (`id` is the page slug).',
        params: z.object({ id: z.string().min(1).max(64), key: incidentKeyString }),
        response: { 200: envelope(publicIncident), ...publicErrors },
      },
    },
    async (request, reply) => {
      const { incident } = await readPublicIncident({
        ctx,
        input: { slug: request.params.id, key: request.params.key },
      })
      reply.header('Cache-Control', PUBLIC_CACHE)
      return ok(incident)
    },
  )
}
