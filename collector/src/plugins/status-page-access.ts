import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { notFound } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ConsoleAuth } from '../console/bff.ts'
import { readCookie } from '../console/cookies.ts'
import type { CollectorContext } from '../context.ts'
import { pageCookieName, pageCookieOpens } from '../services/status-pages/access/page-cookie.ts'
import { type PageAccess, readPageAccess } from '../services/status-pages/access/read-access.ts'
import { renderAccessGate } from '../services/status-pages/access/render-gate.ts'
import { allowListMatches } from '../services/status-pages/access/schemas.ts'
import { slugForHost } from '../services/status-pages/custom-domains.ts'
import { viewLocale } from '../services/status-pages/i18n/locales.ts'
import { pageText } from '../services/status-pages/i18n/page-text.ts'

const customHosts = new WeakMap<IncomingMessage, string>()
export const STATUS_ASSET_BASE = '/status-assets'

/** The page's own paths on its custom host, relative to the page's path on the collector's host. */
const PAGE_PATHS =
  /^\/(?:feed\.atom|badge\.svg|summary\.json|access|sign-in|history|subscribe|confirm|unsubscribe|incidents\/[^/?]{1,64}|components\/[^/?]{1,64}\/badge\.svg)?$/

/**
 * fastify's rewriteUrl (synchronous, before routing): a request whose Host is a page's custom
 * domain is routed to that page's paths (`/` to `/status/{slug}`, `/feed.atom` to
 * `/status/{slug}/feed.atom`, `/status.json` to its public JSON); its assets stay where they are,
 * and anything else (the console, the API, other pages) goes to a path nothing answers, so a
 * custom domain serves its own page and nothing more.
 */
export function customDomainRewrite(ctx: CollectorContext) {
  return (request: IncomingMessage): string => {
    const url = request.url ?? '/'
    const host = request.headers.host?.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '')
    const slug = host ? slugForHost(ctx, host) : undefined
    if (!host || !slug) return url
    customHosts.set(request, host)
    const index = url.indexOf('?')
    const path = index < 0 ? url : url.slice(0, index)
    const query = index < 0 ? '' : url.slice(index)
    if (path.startsWith(`${STATUS_ASSET_BASE}/`)) return url
    if (path === '/status.json') return `/api/status-pages/${slug}/public${query}`
    if (PAGE_PATHS.test(path)) return `/status/${slug}${path === '/' ? '' : path}${query}`
    return `/status/${slug}/not-on-this-domain`
  }
}

/** The custom host a request came in on, when it did. */
export const customHostOf = (request: FastifyRequest): string | undefined => customHosts.get(request.raw)

/** Where the page lives for this request: `` on its custom host, `/status/{slug}` on the collector's. */
export const pagePathOf = (request: FastifyRequest, slug: string): string =>
  customHostOf(request) ? '' : `/status/${slug}`

/** The key page sessions and sign-in grants are signed with, derived from GUARD_SECRET_KEY for this purpose. */
export const pageAccessKey = (ctx: CollectorContext): Buffer =>
  createHash('sha256').update(ctx.sealKey).update('status page access').digest()

const privateRequests = new WeakSet<FastifyRequest>()
/** Marks an answer about a private page: never stored by shared caches, never readable cross-origin. */
export const markPrivate = (request: FastifyRequest) => privateRequests.add(request)

/** Every route that shows a page, by its fastify path: the access rule runs before any of them. */
const PAGE_ROUTES = new Set([
  '/status/:slug',
  '/status/:slug/badge.svg',
  '/status/:slug/components/:componentId/badge.svg',
  '/status/:slug/feed.atom',
  '/status/:slug/summary.json',
  '/status/:slug/history',
  '/status/:slug/incidents/:key',
  '/status/:slug/subscribe',
  '/api/status-pages/:id/public',
  '/api/status-pages/:id/subscribe',
  '/api/status-pages/:id/public/history',
  '/api/status-pages/:id/public/incidents/:key',
])

/** Whether the organization's console session of this browser belongs to a member of the page's organization. */
export async function signedInMember(auth: ConsoleAuth, request: FastifyRequest, access: PageAccess) {
  const session = await auth.describe(request)
  if (!session.signedIn) return { signedIn: false, member: false }
  return { signedIn: true, member: session.organizations.some((item) => item.id === access.organizationId) }
}

/**
 * Private pages. Before a page route runs, its access rule is read (kept per slug, stale at a write
 * like the page): `ip` lets in client addresses of the allow-list (request.ip, which believes
 * X-Forwarded-For only from GUARD_TRUSTED_PROXIES), `password` and `members` the browsers holding
 * the page's session cookie, and `members` also a console session of a member. Everyone else gets
 * the gate (HTML page of a password or members page) or the same 404 as an unknown page, so the
 * cached answer of a private page is only ever served to those let in.
 */
export function statusPageAccess(ctx: CollectorContext, auth: ConsoleAuth) {
  const key = pageAccessKey(ctx)
  async function allowed(request: FastifyRequest, access: PageAccess): Promise<boolean> {
    if (access.mode === 'ip') return allowListMatches(access.allowList, request.ip)
    if (pageCookieOpens(key, access, readCookie(request, pageCookieName(key, access)))) return true
    return access.mode === 'members' && !customHostOf(request) && (await signedInMember(auth, request, access)).member
  }

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!PAGE_ROUTES.has(request.routeOptions.url ?? '')) return
    const params = request.params as { slug?: string; id?: string }
    const slug = params.slug ?? params.id ?? ''
    const access = await readPageAccess(ctx, slug)
    if (!access || access.mode === 'public') return
    markPrivate(request)
    if (await allowed(request, access)) return
    if (request.routeOptions.url !== '/status/:slug' || access.mode === 'ip') throw notFound('Status page')
    const path = pagePathOf(request, slug)
    return reply
      .status(401)
      .header('Content-Security-Policy', GATE_POLICY)
      .type('text/html; charset=utf-8')
      .send(
        renderAccessGate({
          kind: access.mode,
          assetBase: STATUS_ASSET_BASE,
          action: `${path}/${access.mode === 'password' ? 'access' : 'sign-in'}`,
          text: pageText(viewLocale(access.locale, (request.query as { lang?: unknown }).lang)),
        }),
      )
  }

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!privateRequests.has(request)) return payload
    reply.header('Cache-Control', 'private, no-store')
    reply.removeHeader('Access-Control-Allow-Origin')
    reply.removeHeader('Access-Control-Expose-Headers')
    return payload
  }
  return { preHandler, onSend }
}

/** The gate runs no script, posts only to its own origin and cannot be framed (its form takes a password). */
export const GATE_POLICY =
  "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
