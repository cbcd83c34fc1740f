import { type GuardFastify, notFound, parseUrlEncodedForm, verifyPassword } from '@guard/shared'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { ConsoleAuth } from '../console/bff.ts'
import { cookie } from '../console/cookies.ts'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import {
  customHostOf,
  GATE_POLICY,
  markPrivate,
  pageAccessKey,
  pagePathOf,
  STATUS_ASSET_BASE,
  signedInMember,
} from '../plugins/status-page-access.ts'
import { askCustomDomain } from '../services/status-pages/access/ask-domain.ts'
import { checkStatusPageDomain } from '../services/status-pages/access/check-domain.ts'
import { getStatusPageAccess } from '../services/status-pages/access/get-access.ts'
import {
  pageCookieName,
  pageCookieValue,
  signInGrant,
  signInGrantOpens,
} from '../services/status-pages/access/page-cookie.ts'

import { readPageAccess } from '../services/status-pages/access/read-access.ts'
import { type GateKind, renderAccessGate } from '../services/status-pages/access/render-gate.ts'
import {
  askQuery,
  domainCheckView,
  statusPageAccessView,
  updateAccessInput,
  updateDomainInput,
} from '../services/status-pages/access/schemas.ts'
import { updateStatusPageAccess } from '../services/status-pages/access/update-access.ts'
import { updateStatusPageDomain } from '../services/status-pages/access/update-domain.ts'
import type { Locale } from '../services/status-pages/i18n/locales.ts'
import { pageText } from '../services/status-pages/i18n/page-text.ts'
import { slugString } from '../services/status-pages/schemas.ts'
import { envelope, errorResponses, errorSchema, idParams, ok, rateLimitedSchema } from './common.ts'
import { minuteLimiter } from './minute-limiter.ts'

const read = { access: { permission: 'status-pages:read' as const } }
const write = { access: { permission: 'status-pages:write' as const } }
const accessResponse = { 200: envelope(statusPageAccessView), ...errorResponses }
/**
 * A member's session on a custom domain, which cannot see the console session: short, so someone
 * removed from the organization loses the page within the hour.
 */
const MEMBER_GRANT_SECONDS = 3600

/** Who may see a page and the host it answers on (organization-scoped, like the page itself). */
export function statusPageAccessRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/status-pages/:id/access',
    {
      config: read,
      schema: {
        description: 'Who may see the page (mode, allow-list, whether a password is set) and its custom domain.',
        params: idParams,
        response: accessResponse,
      },
    },
    async (request) => ok(await getStatusPageAccess({ ctx, caller: callerOf(request), input: request.params })),
  )

  app.put(
    '/api/status-pages/:id/access',
    {
      config: write,
      schema: {
        description:
          'Sets who may see the published page: public, password (hashed with scrypt, never returned), ip (allowList of addresses or CIDR ranges) or members (signed in to Guard as a member of the organization). A new password ends every visitor session of the page.',
        params: idParams,
        body: updateAccessInput,
        response: accessResponse,
      },
    },
    async (request) =>
      ok(
        await updateStatusPageAccess({
          ctx,
          caller: callerOf(request),
          input: { id: request.params.id, body: request.body },
        }),
      ),
  )

  app.put(
    '/api/status-pages/:id/domain',
    {
      config: write,
      schema: {
        description:
          'Sets the host name the page answers on (e.g. status.example.com, a CNAME of the collector public host); null removes it. 409 when another page uses it.',
        params: idParams,
        body: updateDomainInput,
        response: { ...accessResponse, 409: errorSchema },
      },
    },
    async (request) =>
      ok(
        await updateStatusPageDomain({
          ctx,
          caller: callerOf(request),
          input: { id: request.params.id, body: request.body },
        }),
      ),
  )

  app.get(
    '/api/status-pages/:id/domain/check',
    {
      config: read,
      schema: {
        description:
          "Resolves the page's custom domain now and says whether it points at the collector's public host (GUARD_PUBLIC_URL, else the host this request reached): a CNAME of it, or the same addresses.",
        params: idParams,
        response: { 200: envelope(domainCheckView), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await checkStatusPageDomain({
          ctx,
          caller: callerOf(request),
          input: { id: request.params.id, requestHost: request.hostname },
        }),
      ),
  )
}

const slugParams = z.object({ slug: slugString })
const html = z.string()
const redirect = z.null().describe('Redirect (Location header)')

/**
 * The unauthenticated side: Caddy's on-demand TLS `ask`, the password form's post, and the members'
 * sign-in through the console's own session (no second OAuth client).
 */
export async function statusPageGateRoutes(
  fastify: FastifyInstance,
  ctx: CollectorContext,
  auth: ConsoleAuth,
): Promise<void> {
  const key = pageAccessKey(ctx)
  const attempts = minuteLimiter(ctx.env.GUARD_STATUS_PAGE_PASSWORD_ATTEMPTS)
  const lifetime = ctx.env.GUARD_CONSOLE_SESSION_HOURS * 3600

  const gate = (
    reply: FastifyReply,
    status: number,
    kind: GateKind,
    action: string,
    locale: Locale,
    error?: 'gate.throttled' | 'gate.wrongPassword',
  ) =>
    reply
      .status(status)
      .header('Content-Security-Policy', GATE_POLICY)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(renderAccessGate({ kind, assetBase: STATUS_ASSET_BASE, action, error, text: pageText(locale) }))

  const openPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    name: string,
    value: string,
    path: string,
    maxAgeSeconds = lifetime,
  ) =>
    reply
      .header('Set-Cookie', cookie(name, value, { maxAgeSeconds, secure: request.protocol === 'https' }))
      .redirect(path === '' ? '/' : path, 303)

  await fastify.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'buffer', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(parseUrlEncodedForm(body as Buffer))),
    )
    scope.addHook('onRequest', async (request) => {
      markPrivate(request)
    })
    const app = scope.withTypeProvider<ZodTypeProvider>()

    app.get(
      '/api/status-pages/custom-domains/ask',
      {
        schema: {
          description:
            "For a TLS proxy's on-demand certificates (Caddy `on_demand_tls { ask … }`): 200 when `domain` is the custom domain of a published page, else 404.",
          querystring: askQuery,
          response: {
            200: envelope(z.object({ domain: z.string(), allowed: z.literal(true) })),
            400: errorSchema,
            404: errorSchema,
            429: rateLimitedSchema,
          },
        },
      },
      async (request) => {
        if (!(await askCustomDomain({ ctx, input: request.query }))) throw notFound('Custom domain')
        return ok({ domain: request.query.domain, allowed: true as const })
      },
    )

    app.post(
      '/status/:slug/access',
      {
        schema: {
          description:
            'The password form of a private page (form field `password`): the right one sets the page session cookie and redirects to the page; a wrong one shows the form again (401); too many attempts per client IP and minute get 429.',
          params: slugParams,
          body: z.object({ password: z.string().max(200) }),
          consumes: ['application/x-www-form-urlencoded'],
          produces: ['text/html'],
          response: { 303: redirect, 400: errorSchema, 401: html, 404: errorSchema, 429: html },
        },
      },
      async (request, reply) => {
        const access = await readPageAccess(ctx, request.params.slug)
        if (access?.mode !== 'password' || !access.passwordHash) throw notFound('Status page')
        const path = pagePathOf(request, access.slug)
        const decision = attempts(`${access.id}|${request.ip}`)
        if (!decision.allowed) {
          reply.header('Retry-After', decision.retryAfter)
          return gate(reply, 429, 'password', `${path}/access`, access.locale, 'gate.throttled')
        }
        if (!(await verifyPassword(request.body.password, access.passwordHash))) {
          return gate(reply, 401, 'password', `${path}/access`, access.locale, 'gate.wrongPassword')
        }
        return openPage(request, reply, pageCookieName(key, access), pageCookieValue(key, access, lifetime), path)
      },
    )

    app.get(
      '/status/:slug/access',
      {
        schema: {
          description:
            "Where a member's sign-in on the collector's host hands over to the page's custom domain (`grant`, valid a minute): sets the page session cookie there.",
          params: slugParams,
          querystring: z.object({ grant: z.string().max(200) }),
          response: { 303: redirect, 400: errorSchema, 404: errorSchema, 429: rateLimitedSchema },
        },
      },
      async (request, reply) => {
        const access = await readPageAccess(ctx, request.params.slug)
        if (access?.mode !== 'members' || !signInGrantOpens(key, access, request.query.grant)) {
          throw notFound('Status page')
        }
        return openPage(
          request,
          reply,
          pageCookieName(key, access),
          pageCookieValue(key, access, MEMBER_GRANT_SECONDS),
          pagePathOf(request, access.slug),
          MEMBER_GRANT_SECONDS,
        )
      },
    )

    app.get(
      '/status/:slug/sign-in',
      {
        schema: {
          description:
            "Members' sign-in to a private page, through the web console's sign-in: a member goes on to the page (on its custom domain with a one-minute grant), someone signed in to another organization gets 403.",
          params: slugParams,
          querystring: z.object({ handoff: z.enum(['http', 'https']).optional() }),
          produces: ['text/html'],
          response: { 302: redirect, 303: redirect, 400: errorSchema, 403: html, 404: errorSchema },
        },
      },
      async (request, reply) => {
        const access = await readPageAccess(ctx, request.params.slug)
        if (access?.mode !== 'members') throw notFound('Status page')
        if (customHostOf(request)) {
          // The console's session cookie belongs to the collector's host: the sign-in happens there.
          const base = ctx.env.GUARD_PUBLIC_URL ?? ''
          return reply.redirect(`${base}/status/${access.slug}/sign-in?handoff=${request.protocol}`, 303)
        }
        const self = `/status/${access.slug}/sign-in${request.query.handoff ? `?handoff=${request.query.handoff}` : ''}`
        const { signedIn, member } = await signedInMember(auth, request, access)
        if (!signedIn) return reply.redirect(`/auth/login?returnTo=${encodeURIComponent(self)}`, 303)
        if (!member) return gate(reply, 403, 'not-member', self, access.locale)
        if (request.query.handoff && access.customDomain) {
          const grant = encodeURIComponent(signInGrant(key, access))
          return reply.redirect(`${request.query.handoff}://${access.customDomain}/access?grant=${grant}`, 303)
        }
        // On the collector's host the console session itself lets a member in, for as long as it says so.
        return reply.redirect(`/status/${access.slug}`, 303)
      },
    )
  })
}
