import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type GuardFastify, notFound } from '@guard/shared'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { customHostOf, pagePathOf } from '../plugins/status-page-access.ts'
import { bodyFor, type ContentEncoding, type EncodedBody, encodeBody } from '../services/encoded-body.ts'
import { addStatusPageComponent } from '../services/status-pages/add-component.ts'
import { badgeQuery, componentBadge, componentBadgeQuery, pageBadge } from '../services/status-pages/badge.ts'
import { createStatusPage } from '../services/status-pages/create.ts'
import { deleteStatusPage } from '../services/status-pages/delete.ts'
import { renderIncidentFeed } from '../services/status-pages/feed.ts'
import { readIncidentFeedPage, readIncidentFeedPageInput } from '../services/status-pages/feed-page.ts'
import { getStatusPage } from '../services/status-pages/get.ts'
import { langQuery, viewLocale } from '../services/status-pages/i18n/locales.ts'
import { pageText } from '../services/status-pages/i18n/page-text.ts'
import { listStatusPages } from '../services/status-pages/list.ts'
import { orderStatusPageComponents } from '../services/status-pages/order-components.ts'
import { type PublicPageAnswer, readPublicStatusPage } from '../services/status-pages/read-public.ts'
import { removeStatusPageComponent } from '../services/status-pages/remove-component.ts'
import { logoOrigin, renderStatusPageHtml } from '../services/status-pages/render-html.ts'
import {
  addComponentInputs,
  COMPONENT_KINDS,
  createStatusPageInput,
  orderComponentsInput,
  publicStatusPage,
  slugString,
  statusPageDetail,
  statusPageView,
  updateStatusPageInput,
} from '../services/status-pages/schemas.ts'
import { renderSubscribeForm } from '../services/status-pages/subscribers/render-form.ts'
import { statusPageSummary, summarizeStatusPage } from '../services/status-pages/summary.ts'
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

  for (const kind of COMPONENT_KINDS) {
    const body = addComponentInputs[kind]
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
 * Public answers are fetched and embedded by anyone: a browser must never sniff one into another
 * type (a badge or a summary read as HTML), and a visitor who follows a link away tells that site
 * nothing. An onSend hook, so refusals (404, 429) carry the headers too.
 */
export async function publicHeaders(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  reply.header('X-Content-Type-Options', 'nosniff')
  reply.header('Referrer-Policy', 'no-referrer')
  return payload
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
      onSend: publicHeaders,
      schema: {
        description:
          'What visitors of a public page see (no authentication; `id` is the page slug). 404 for private or unknown pages. Send If-None-Match with the ETag for a 304; with Accept-Encoding br or gzip the answer comes compressed once the collector has made that copy.',
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
      const { json, etag } = await readPublicStatusPage(ctx, request.params.id)
      // Serialized (and checked against the schema) and encoded once per kept answer, not per request:
      // the bytes are that schema's answer already, and fastify sends bytes as they are.
      return sendPublic(request, reply, {
        etag,
        cache: PUBLIC_CACHE,
        type: 'application/json; charset=utf-8',
        encoded: () => json,
      })
    },
  )
}

export const matches = (header: string | undefined, etag: string): boolean =>
  header?.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag || candidate.trim() === '*') ===
  true

/** The validator of one content coding of a representation: `"tag"` plain, `"tag-br"`, `"tag-gzip"`. */
const codedTag = (etag: string, encoding: ContentEncoding | undefined) =>
  encoding ? `${etag.slice(0, -1)}-${encoding}"` : etag
/** Any coding's validator revalidates the others: they carry the same content. */
const matchesAnyCoding = (header: string | undefined, etag: string) =>
  matches(header?.replace(/-(?:br|gzip)"/g, '"'), etag)

const require = createRequire(import.meta.url)
const ASSET_DIR = new URL('../../assets/status-page/', import.meta.url)
export const ASSET_BASE = '/status-assets'
/** The page's own files and uPlot, read once: the page loads nothing from any other origin. */
const ASSETS: Record<string, { type: string; body: string }> = {
  'status-page.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(new URL('status-page.css', ASSET_DIR), 'utf8'),
  },
  'status-page.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(new URL('status-page.js', ASSET_DIR), 'utf8'),
  },
  'uplot.min.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  },
  'uplot.iife.min.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
  },
}

/** Only the page's own scripts run; images come from the collector and the page's logo origin. */
export const contentSecurityPolicy = (logo: string | null) =>
  `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:${logo ? ` ${logo}` : ''}; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors *`
export const PUBLIC_CACHE = 'public, max-age=30, stale-while-revalidate=30'
/** Badges are fetched by image proxies (GitHub's camo) that honour max-age: a minute keeps outages visible. */
const BADGE_CACHE = 'public, max-age=60, stale-while-revalidate=60'
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'"
export const slugParams = z.object({ slug: slugString })
export const tagOf = (prefix: string, text: string) =>
  `"${prefix}${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`

/** Rendered and encoded once per cached answer: the HTML page and the summary are as cheap to serve as the JSON. */
function renderedOnce(answer: PublicPageAnswer, key: string, render: () => string): EncodedBody {
  let body = answer.rendered.get(key)
  if (body === undefined) {
    body = encodeBody(render())
    answer.rendered.set(key, body)
  }
  return body
}

/**
 * Sends a public answer with its validator and cache policy, or a 304 when the client has it. Kept
 * answers go out as their stored bytes, compressed when the client accepts it (`Vary: Accept-Encoding`).
 */
export function sendPublic(
  request: FastifyRequest,
  reply: FastifyReply,
  response: { etag: string; cache: string; type: string } & ({ body: () => string } | { encoded: () => EncodedBody }),
) {
  reply.header('Cache-Control', response.cache)
  if ('body' in response) {
    reply.header('ETag', response.etag)
    if (matches(request.headers['if-none-match'], response.etag)) return notModified(reply)
    return reply.type(response.type).send(response.body())
  }
  reply.header('Vary', 'Accept-Encoding')
  const { encoding, bytes } = bodyFor(response.encoded(), request.headers['accept-encoding'])
  reply.header('ETag', codedTag(response.etag, encoding))
  if (matchesAnyCoding(request.headers['if-none-match'], response.etag)) return notModified(reply)
  if (encoding) reply.header('Content-Encoding', encoding)
  return reply.type(response.type).send(bytes)
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag',
}

/**
 * The public HTML page, its assets, badges, incident feed and embeddable summary: unauthenticated,
 * counted per client IP like the JSON, and 404 for private or unknown pages.
 */
export function statusPageHtmlRoutes(fastify: FastifyInstance, ctx: CollectorContext): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get(
    '/status/:slug',
    {
      onSend: publicHeaders,
      schema: {
        description:
          "The public status page as HTML, readable without JavaScript, in the page's language (or `lang`'s); 404 for private or unknown pages.",
        params: slugParams,
        querystring: langQuery,
        produces: ['text/html'],
        response: { 200: z.string(), 304: z.null(), 400: errorSchema, 404: errorSchema, 429: rateLimitedSchema },
      },
    },
    async (request, reply) => {
      const answer = await readPublicStatusPage(ctx, request.params.slug)
      reply.header('Content-Security-Policy', contentSecurityPolicy(logoOrigin(answer.page)))
      // On its custom domain the page's links start at the root: another rendering, another validator.
      const path = pagePathOf(request, request.params.slug)
      const text = pageText(viewLocale(answer.page.locale, request.query.lang))
      return sendPublic(request, reply, {
        etag: `"h${path === '' ? 'd' : ''}${text.locale}${answer.etag.slice(1)}`,
        cache: PUBLIC_CACHE,
        type: 'text/html; charset=utf-8',
        encoded: () =>
          renderedOnce(answer, `${path === '' ? 'html:domain' : 'html'}:${text.locale}`, () =>
            renderStatusPageHtml(answer.page, ASSET_BASE, path, renderSubscribeForm(answer, path, text), text),
          ),
      })
    },
  )

  app.get(
    '/status/:slug/badge.svg',
    {
      onSend: publicHeaders,
      schema: {
        description:
          'SVG badge of the page overall state (badge-maker). `style`: flat, flat-square, plastic, for-the-badge, social; `label` replaces "status".',
        params: slugParams,
        querystring: badgeQuery,
        produces: ['image/svg+xml'],
        response: { 200: z.string(), 304: z.null(), 400: errorSchema, 404: errorSchema, 429: rateLimitedSchema },
      },
    },
    async (request, reply) => {
      const answer = await readPublicStatusPage(ctx, request.params.slug)
      const svg = pageBadge(answer.page, request.query)
      reply.header('Content-Security-Policy', SVG_POLICY)
      return sendPublic(request, reply, {
        etag: tagOf('b', svg),
        cache: BADGE_CACHE,
        type: 'image/svg+xml; charset=utf-8',
        body: () => svg,
      })
    },
  )

  app.get(
    '/status/:slug/components/:componentId/badge.svg',
    {
      onSend: publicHeaders,
      schema: {
        description:
          'SVG badge of one component of a public page: `type=status` (default) its state, `type=uptime` its uptime over 30 days. `componentId` is the id from GET /api/status-pages/{id}; `label` defaults to the component name.',
        params: z.object({ slug: slugString, componentId: z.string().min(1).max(64) }),
        querystring: componentBadgeQuery,
        produces: ['image/svg+xml'],
        response: { 200: z.string(), 304: z.null(), 400: errorSchema, 404: errorSchema, 429: rateLimitedSchema },
      },
    },
    async (request, reply) => {
      const answer = await readPublicStatusPage(ctx, request.params.slug)
      const component = answer.page.components[answer.componentIds.indexOf(request.params.componentId)]
      if (!component) throw notFound('Component')
      const svg = componentBadge(component, request.query)
      reply.header('Content-Security-Policy', SVG_POLICY)
      return sendPublic(request, reply, {
        etag: tagOf('b', svg),
        cache: BADGE_CACHE,
        type: 'image/svg+xml; charset=utf-8',
        body: () => svg,
      })
    },
  )

  app.get(
    '/status/:slug/feed.atom',
    {
      onSend: publicHeaders,
      schema: {
        description:
          "Atom feed of the page's whole incident history, newest first, 25 entries a page (`page`, RFC 5005 first/previous/next/last links), with their public updates; links use the page's custom domain when asked there, else GUARD_PUBLIC_URL when set, else the request host.",
        params: slugParams,
        querystring: readIncidentFeedPageInput.pick({ page: true }).extend(langQuery.shape),
        produces: ['application/atom+xml'],
        response: { 200: z.string(), 304: z.null(), 400: errorSchema, 404: errorSchema, 429: rateLimitedSchema },
      },
    },
    async (request, reply) => {
      const { lang, ...query } = request.query
      const feedPage = await readIncidentFeedPage({ ctx, input: { slug: request.params.slug, ...query } })
      const custom = customHostOf(request)
      const base = custom
        ? `${request.protocol}://${custom}`
        : (ctx.env.GUARD_PUBLIC_URL ?? `${request.protocol}://${request.host}`)
      const text = pageText(viewLocale(feedPage.answer.page.locale, lang))
      const body = renderIncidentFeed(feedPage, base, pagePathOf(request, request.params.slug), text)
      return sendPublic(request, reply, {
        etag: tagOf('f', body.replace(/<updated>[^<]*<\/updated>/, '')),
        cache: PUBLIC_CACHE,
        type: 'application/atom+xml; charset=utf-8',
        body: () => body,
      })
    },
  )

  app.get(
    '/status/:slug/summary.json',
    {
      onSend: publicHeaders,
      schema: {
        description:
          'Small summary of a public page for other sites to embed: overall state, components with 30-day uptime, active incidents, maintenance. CORS: any origin, no credentials.',
        params: slugParams,
        response: {
          200: statusPageSummary,
          304: z.null(),
          400: errorSchema,
          404: errorSchema,
          429: rateLimitedSchema,
        },
      },
    },
    async (request, reply) => {
      reply.headers(CORS)
      const answer = await readPublicStatusPage(ctx, request.params.slug)
      return sendPublic(request, reply, {
        etag: `"s${answer.etag.slice(1)}`,
        cache: PUBLIC_CACHE,
        type: 'application/json; charset=utf-8',
        encoded: () =>
          renderedOnce(answer, 'summary', () =>
            JSON.stringify(statusPageSummary.parse(summarizeStatusPage(answer.page))),
          ),
      })
    },
  )

  app.options(
    '/status/:slug/summary.json',
    {
      onSend: publicHeaders,
      schema: {
        description: 'CORS preflight of the summary: GET from any origin, with If-None-Match, without credentials.',
        params: slugParams,
        response: { 204: z.null(), 400: errorSchema, 429: rateLimitedSchema },
      },
    },
    async (_request, reply) =>
      reply
        .headers({
          ...CORS,
          'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
          'Access-Control-Allow-Headers': 'If-None-Match',
          'Access-Control-Max-Age': '86400',
        })
        .status(204)
        .send(null),
  )

  app.get(
    `${ASSET_BASE}/:file`,
    {
      onSend: publicHeaders,
      schema: {
        description: 'Stylesheets and scripts of the public status page (uPlot included).',
        params: z.object({ file: z.enum(Object.keys(ASSETS) as [string, ...string[]]) }),
        produces: ['text/css', 'text/javascript'],
        response: { 200: z.string(), 400: errorSchema },
      },
    },
    async (request, reply) => {
      const asset = ASSETS[request.params.file]!
      reply.header('Cache-Control', 'public, max-age=3600')
      return reply.type(asset.type).send(asset.body)
    },
  )
}

/** A 304 without a body or Content-Length (fastify would send `null` as a 4-byte body otherwise). */
const notModified = (reply: FastifyReply) => reply.status(304).send()
