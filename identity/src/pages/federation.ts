import type { GuardFastify } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { isSecureIssuer, type OAuthContext } from '../oauth/context.ts'
import { htmlResponse, problemResponse, redirect } from '../oauth/schemas.ts'
import { recordAudit } from '../services/audit/record.ts'
import { completeFederatedSignIn } from '../services/federation/complete-sign-in.ts'
import { findFederationProvider } from '../services/federation/find-provider.ts'
import { hasOrganizationProviders, listSignInProviders } from '../services/federation/list-sign-in-providers.ts'
import type { FederationProvider } from '../services/federation/provider.ts'
import { type FederatedRefusal, resolveFederatedUser } from '../services/federation/resolve-user.ts'
import { type FederationState, startFederatedSignIn } from '../services/federation/start-sign-in.ts'
import { cookie, readCookie, signValue, unsignValue } from './cookies.ts'
import { type Html, html, sendErrorPage, sendPage } from './html.ts'
import { startBrowserSession } from './session.ts'
import { returnTo } from './sign-in.ts'

// A literal: sign-in.ts imports this module, so its SIGN_IN_PATH is not defined yet here.
export const FEDERATION_PATH = '/sign-in/federation'
const CALLBACK_PATH = `${FEDERATION_PATH}/callback`
const STATE_COOKIE = 'guard_federation'
/** Long enough to type a password at the upstream, short enough that a stolen cookie soon means nothing. */
const STATE_SECONDS = 10 * 60

const stateCookie = z.object({
  providerId: z.string(),
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  returnTo: z.string(),
})

const REFUSALS: Record<FederatedRefusal, (name: string) => string> = {
  domain: (name) => `Your e-mail address is not of a domain allowed to sign in with ${name}.`,
  unverified_email: (name) =>
    `A Guard account with this e-mail address exists, but ${name} does not say the address is verified, so the two are not linked. Sign in with your password, or ask an administrator.`,
  existing_account: (name) =>
    `A Guard account with this e-mail address exists and is not linked to ${name}. Sign in with your password, or ask an administrator.`,
  not_provisioned: (name) =>
    `No Guard account is linked to your ${name} account, and ${name} sign-in does not create accounts. Ask an administrator to invite you.`,
  disabled: () => 'This Guard account is disabled.',
}

/** "Sign in with …" buttons for the sign-in page: plain GET forms, since the pages run no script. */
export async function federationSection(
  ctx: OAuthContext,
  input: { returnTo: string; email: string; only?: FederationProvider[] | undefined },
): Promise<Html> {
  const providers = input.only ?? (await listSignInProviders(ctx.sql, input.email || undefined))
  const buttons = providers.map(
    (provider) => html`<form method="get" action="${FEDERATION_PATH}">
<input type="hidden" name="provider" value="${provider.id}">
<input type="hidden" name="return_to" value="${input.returnTo}">
<button type="submit" class="secondary">Sign in with ${provider.name}</button>
</form>`,
  )
  const byDomain =
    input.only === undefined && (await hasOrganizationProviders(ctx.sql))
      ? html`<form method="get" action="${FEDERATION_PATH}">
<input type="hidden" name="return_to" value="${input.returnTo}">
<label for="sso-email">Work e-mail (single sign-on)</label>
<input id="sso-email" name="email" type="email" autocomplete="username" required value="${input.email}">
<button type="submit" class="secondary">Continue with single sign-on</button>
</form>`
      : html``
  if (buttons.length === 0 && byDomain.markup === '') return html``
  return html`<h2>Or</h2>${buttons}${byDomain}`
}

function saveState(ctx: OAuthContext, reply: FastifyReply, state: FederationState): void {
  const value = Buffer.from(JSON.stringify(state)).toString('base64url')
  reply.header(
    'Set-Cookie',
    cookie(STATE_COOKIE, signValue(ctx.secrets.cookieSigning, value), {
      maxAgeSeconds: STATE_SECONDS,
      secure: isSecureIssuer(ctx),
    }),
  )
}

function takeState(ctx: OAuthContext, request: FastifyRequest, reply: FastifyReply): FederationState | undefined {
  const value = unsignValue(ctx.secrets.cookieSigning, readCookie(request, STATE_COOKIE))
  // Used once: cleared whatever the outcome, so a callback cannot be replayed with it.
  reply.header('Set-Cookie', cookie(STATE_COOKIE, '', { maxAgeSeconds: 0, secure: isSecureIssuer(ctx) }))
  if (!value) return undefined
  try {
    const parsed = stateCookie.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/**
 * Sign-in through an upstream OpenID provider: identity is its relying party (openid-client,
 * code flow with PKCE, state and nonce in a signed cookie), finds or links or provisions the
 * Guard user, and signs the browser in to Guard's own session with `amr` ["fed"], then goes
 * back to the authorization request the sign-in page was opened for.
 */
export function federationPages(app: GuardFastify, ctx: OAuthContext): void {
  const options = () => ({
    issuer: ctx.issuer,
    secretKey: ctx.secrets.federationSecrets,
    allowPrivate: ctx.allowPrivateTargets,
  })

  app.get(
    FEDERATION_PATH,
    {
      schema: {
        summary: 'Start signing in through an upstream OpenID provider',
        description:
          "With `provider`, that provider; with `email`, the organization's provider for the address's domain. Redirects to the upstream's authorization endpoint.",
        tags: ['pages'],
        querystring: z.object({
          return_to: returnTo,
          provider: z.string().max(64).optional(),
          email: z.string().max(320).optional(),
        }),
        response: {
          303: redirect,
          400: problemResponse('Invalid request: return_to is missing or not an authorization request'),
          404: htmlResponse('HTML error page: no such provider, or none for this e-mail domain'),
          502: htmlResponse('HTML error page: the upstream provider did not answer its discovery'),
        },
      },
    },
    async (request, reply) => {
      const query = request.query
      const provider = query.provider
        ? await findFederationProvider(ctx.sql, query.provider)
        : (await listSignInProviders(ctx.sql, query.email)).find((candidate) => candidate.organizationId !== null)
      if (!provider) {
        return sendErrorPage(
          reply,
          404,
          query.provider
            ? 'This sign-in provider does not exist (any more).'
            : 'No single sign-on is set up for this e-mail domain. Sign in with your password.',
        )
      }
      try {
        const started = await startFederatedSignIn({
          provider,
          ...options(),
          returnTo: query.return_to,
          loginHint: query.email,
        })
        saveState(ctx, reply, started.state)
        return reply.redirect(started.url.href, 303)
      } catch (error) {
        request.log.warn({ err: error, provider: provider.id }, 'federation: discovery failed')
        return sendErrorPage(reply, 502, `${provider.name} cannot be reached right now. Try again later.`)
      }
    },
  )

  app.get(
    CALLBACK_PATH,
    {
      schema: {
        summary: 'Return from an upstream OpenID provider',
        tags: ['pages'],
        querystring: z.looseObject({
          code: z.string().max(4096).optional(),
          state: z.string().max(512).optional(),
          error: z.string().max(256).optional(),
        }),
        response: {
          303: redirect,
          400: htmlResponse('HTML error page: the state cookie is missing or the upstream answered an error'),
          403: htmlResponse(
            'HTML error page: the upstream account may not sign in here (domain, linking, provisioning)',
          ),
        },
      },
    },
    async (request, reply) => {
      const state = takeState(ctx, request, reply)
      if (!state) {
        return sendErrorPage(reply, 400, 'This sign-in took too long or was started elsewhere. Start it again.')
      }
      const provider = await findFederationProvider(ctx.sql, state.providerId)
      if (!provider) return sendErrorPage(reply, 400, 'This sign-in provider was removed. Start again.')
      if (request.query.error) {
        return sendErrorPage(reply, 400, `${provider.name} did not sign you in (${request.query.error}).`)
      }
      let claims: Awaited<ReturnType<typeof completeFederatedSignIn>>
      try {
        claims = await completeFederatedSignIn({
          provider,
          callbackUrl: new URL(request.url, `${ctx.issuer}/`),
          state,
          ...options(),
        })
      } catch (error) {
        request.log.warn({ err: error, provider: provider.id }, 'federation: the upstream answer was refused')
        return sendErrorPage(reply, 400, `The answer of ${provider.name} could not be verified. Start again.`)
      }
      const outcome = await ctx.sql.transaction((tx) => resolveFederatedUser({ sql: tx, provider, claims }))
      const actor = {
        type: 'system' as const,
        id: undefined,
        label: `federation (${provider.name})`,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      }
      if ('refused' in outcome) {
        await recordAudit(ctx.sql, actor, {
          action: 'federation.refuse',
          targetType: 'federation_provider',
          targetId: provider.id,
          details: { reason: outcome.refused, subject: claims.sub },
        })
        return sendPage(
          reply,
          403,
          'Sign-in refused',
          html`<h1>Sign-in refused</h1><p class="error" role="alert">${REFUSALS[outcome.refused](provider.name)}</p>`,
        )
      }
      await recordAudit(ctx.sql, actor, {
        action: `federation.${outcome.how}`,
        targetType: 'user',
        targetId: outcome.userId,
        details: { providerId: provider.id, subject: claims.sub },
      })
      await startBrowserSession(ctx, request, reply, outcome.userId, ['fed'])
      return reply.redirect(state.returnTo, 303)
    },
  )
}
