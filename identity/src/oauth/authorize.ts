import type { GuardFastify } from '@guard/shared'
import { CONSENT_PATH } from '../pages/consent.ts'
import { sendErrorPage } from '../pages/html.ts'
import { currentSession } from '../pages/session.ts'
import { SIGN_IN_PATH } from '../pages/sign-in.ts'
import { createAuthorizationCode } from '../services/codes/create.ts'
import { hasConsent } from '../services/consent/find.ts'
import {
  afterPrompt,
  authorizationResponseUrl,
  errorResponseUrl,
  needsFreshSignIn,
  resolveClient,
  validateAuthorization,
} from './authorization-request.ts'
import type { OAuthContext } from './context.ts'
import { OAuthError } from './oauth-error.ts'
import { authorizeQuery, htmlOrProblemResponse, redirect } from './schemas.ts'
import { secondFactorRedirect } from './second-factor-redirect.ts'

export function authorizeRoute(app: GuardFastify, ctx: OAuthContext): void {
  app.get(
    '/api/oauth/authorize',
    {
      schema: {
        summary: 'Authorization endpoint (code flow with PKCE S256)',
        description:
          'Redirects to the sign-in page, the consent page, or the client redirect_uri with code, state and iss. ' +
          'An unknown client_id or unregistered redirect_uri gets an HTML error page, never a redirect.',
        tags: ['oauth'],
        querystring: authorizeQuery,
        response: {
          302: redirect,
          400: htmlOrProblemResponse(
            'HTML error page for an unknown client_id or unregistered redirect_uri; problem details for a malformed query (a repeated parameter)',
          ),
        },
      },
    },
    async (request, reply) => {
      const query = request.query
      const resolved = await resolveClient(ctx.sql, query)
      if ('failure' in resolved) return sendErrorPage(reply, 400, resolved.failure)
      const back = (error: OAuthError) =>
        reply.redirect(errorResponseUrl(resolved.redirectUri, ctx.issuer, query.state, error), 302)
      try {
        const authorization = validateAuthorization(resolved.client, resolved.redirectUri, query, ctx.resources)
        const session = await currentSession(ctx, request)
        if (!session || needsFreshSignIn(authorization, session.authTime)) {
          if (authorization.promptNone) {
            const why = session ? 'the sign-in is older than max_age' : 'the user is not signed in'
            return back(new OAuthError('login_required', why))
          }
          const returnTo = `/api/oauth/authorize?${afterPrompt(request.url, 'login')}`
          return reply.redirect(`${SIGN_IN_PATH}?${new URLSearchParams({ return_to: returnTo })}`, 302)
        }
        const secondFactor = await secondFactorRedirect(ctx, session, authorization, request.url)
        if (secondFactor) {
          if (authorization.promptNone) {
            return back(new OAuthError('interaction_required', 'the sign-in needs a second factor'))
          }
          return reply.redirect(secondFactor, 302)
        }
        const consented =
          !authorization.promptConsent &&
          (resolved.client.firstParty || (await hasConsent(ctx.sql, session.userId, resolved.client.id, authorization)))
        if (!consented) {
          if (authorization.promptNone) return back(new OAuthError('consent_required', 'the user has not consented'))
          return reply.redirect(`${CONSENT_PATH}?${afterPrompt(request.url, 'consent')}`, 302)
        }
        const code = await createAuthorizationCode(ctx.sql, {
          clientId: resolved.client.id,
          userId: session.userId,
          redirectUri: resolved.redirectUri,
          scopes: authorization.scopes,
          resource: authorization.resource,
          codeChallenge: authorization.codeChallenge,
          nonce: authorization.nonce,
          authTime: session.authTime,
          amr: session.amr,
        })
        return reply.redirect(authorizationResponseUrl(resolved.redirectUri, ctx.issuer, query.state, { code }), 302)
      } catch (error) {
        if (error instanceof OAuthError) return back(error)
        throw error
      }
    },
  )
}
