import type { GuardFastify } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { compactVerify, decodeJwt } from 'jose'
import { z } from 'zod'
import { cookie, csrfToken, csrfValid, readCookie, SESSION_COOKIE, unsignValue } from '../pages/cookies.ts'
import { html, sendErrorPage, sendPage } from '../pages/html.ts'
import { currentSession } from '../pages/session.ts'
import { type Client, findClient } from '../services/clients/client.ts'
import { endSession } from '../services/sessions/end.ts'
import { isSecureIssuer, type OAuthContext } from './context.ts'
import { htmlOrProblemResponse, htmlResponse, redirect } from './schemas.ts'

export const LOGOUT_PATH = '/api/oauth/logout'

/** OpenID Connect RP-Initiated Logout 1.0 §2; unknown parameters are ignored. */
const logoutParams = z.looseObject({
  id_token_hint: z.string().max(8192).optional(),
  client_id: z.string().max(200).optional(),
  post_logout_redirect_uri: z.string().max(2048).optional(),
  state: z.string().max(2048).optional(),
  /** Present only on this page's own confirmation form. */
  csrf: z.string().optional(),
})
type LogoutParams = z.infer<typeof logoutParams>

/**
 * The hint's signature must be ours (its expiry does not matter: RPs send old ID tokens), so its
 * `sub` and `aud` can be believed.
 */
async function readHint(ctx: OAuthContext, hint: string): Promise<{ sub: string; clientId: string } | undefined> {
  try {
    await compactVerify(hint, (header) => ctx.keys.verificationKey(header))
    const claims = decodeJwt(hint)
    const audience = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud
    const clientId = typeof claims.azp === 'string' ? claims.azp : audience
    if (claims.iss !== ctx.issuer || typeof claims.sub !== 'string' || typeof clientId !== 'string') return undefined
    return { sub: claims.sub, clientId }
  } catch {
    return undefined
  }
}

function signedOutPage(reply: FastifyReply): FastifyReply {
  return sendPage(reply, 200, 'Signed out', html`<h1>You are signed out of Guard</h1><p>You can close this page.</p>`)
}

export function logoutRoutes(app: GuardFastify, ctx: OAuthContext): void {
  const handle = async (request: FastifyRequest, reply: FastifyReply, params: LogoutParams) => {
    const hint = params.id_token_hint ? await readHint(ctx, params.id_token_hint) : undefined
    if (params.id_token_hint && !hint)
      return sendErrorPage(reply, 400, 'The id_token_hint is not an ID token of this provider.')
    if (hint && params.client_id && params.client_id !== hint.clientId) {
      return sendErrorPage(reply, 400, 'client_id does not match the id_token_hint.')
    }
    const clientId = params.client_id ?? hint?.clientId
    let client: Client | undefined
    if (clientId) {
      client = await findClient(ctx.sql, clientId)
      if (!client) return sendErrorPage(reply, 400, 'The application asking to sign you out is not registered.')
    }
    // Only to an address the client registered for this, compared exactly: never an open redirect.
    const target = params.post_logout_redirect_uri
    if (target !== undefined && !client?.postLogoutRedirectUris.includes(target)) {
      return sendErrorPage(
        reply,
        400,
        'The application asked to send you to an address it has not registered for after sign-out (post_logout_redirect_uri).',
      )
    }

    const session = await currentSession(ctx, request)
    // A logout the user did not ask for (a cross-site link without a matching ID token) is confirmed first.
    const confirmed =
      !session ||
      (hint !== undefined && hint.sub === session.userId) ||
      (params.csrf !== undefined && csrfValid(request, ctx.secrets.cookieSigning, params.csrf))
    if (!confirmed) {
      const csrf = csrfToken(request, reply, ctx.secrets.cookieSigning, isSecureIssuer(ctx))
      const keep = Object.entries({ client_id: clientId, post_logout_redirect_uri: target, state: params.state })
      return sendPage(
        reply,
        200,
        'Sign out',
        html`<h1>Sign out of Guard?</h1>
<form method="post" action="${LOGOUT_PATH}">
<input type="hidden" name="csrf" value="${csrf}">
${keep.filter(([, value]) => value !== undefined).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value ?? ''}">`)}
<button type="submit">Sign out</button>
</form>`,
      )
    }
    const secretId = unsignValue(ctx.secrets.cookieSigning, readCookie(request, SESSION_COOKIE))
    if (secretId) await endSession(ctx.sql, secretId)
    reply.header('Set-Cookie', cookie(SESSION_COOKIE, '', { maxAgeSeconds: 0, secure: isSecureIssuer(ctx) }))
    if (!target) return signedOutPage(reply)
    const url = new URL(target)
    if (params.state !== undefined) url.searchParams.set('state', params.state)
    return reply.redirect(url.href, 302)
  }

  const response = {
    200: htmlResponse('The signed-out page, or a page asking the user to confirm'),
    302: redirect,
    400: htmlOrProblemResponse(
      'HTML error page: unknown client, foreign id_token_hint or unregistered post_logout_redirect_uri; problem details for a malformed request',
    ),
  }
  const description =
    'OpenID Connect RP-Initiated Logout: ends the browser session and, when post_logout_redirect_uri is registered for the client (named by client_id or the id_token_hint), redirects there with state. Without an id_token_hint of the signed-in user the page asks the user to confirm.'
  app.get(
    LOGOUT_PATH,
    {
      schema: {
        summary: 'End session (RP-initiated logout)',
        description,
        tags: ['oauth'],
        querystring: logoutParams,
        response,
      },
    },
    (request, reply) => handle(request, reply, request.query),
  )
  app.post(
    LOGOUT_PATH,
    {
      schema: {
        summary: 'End session (RP-initiated logout), form post',
        description,
        tags: ['oauth'],
        consumes: ['application/x-www-form-urlencoded'],
        body: logoutParams,
        response,
      },
    },
    (request, reply) => handle(request, reply, request.body),
  )
}
