import { API_KEYS_SCOPE, type GuardFastify } from '@guard/shared'
import { z } from 'zod'
import { errorResponseUrl, resolveClient, validateAuthorization } from '../oauth/authorization-request.ts'
import { isSecureIssuer, type OAuthContext } from '../oauth/context.ts'
import { OAuthError } from '../oauth/oauth-error.ts'
import { authorizeQuery, htmlOrProblemResponse, htmlResponse, redirect } from '../oauth/schemas.ts'
import { ADMIN_SCOPE, type Scope } from '../oauth/scopes.ts'
import { grantConsent } from '../services/consent/grant.ts'
import { csrfToken, csrfValid } from './cookies.ts'
import { html, sendErrorPage, sendPage } from './html.ts'
import { currentSession } from './session.ts'

export const CONSENT_PATH = '/consent'

/**
 * What each scope lets the application do, in the words the user reads on the page: every power a
 * token of that scope has anywhere (identity, the monitoring API, its MCP endpoint).
 */
export const SCOPE_TEXT: Record<Scope, string> = {
  openid: 'Know who you are (your user id)',
  email: 'See your email address',
  profile: 'See your name, picture and role',
  organizations: 'See which organizations you belong to and your role in each',
  read:
    'Read everything your role lets you read in your organizations: monitors, devices, incidents, status pages, ' +
    "notification channels, integrations, reports, metrics and the list of API keys; read your assistant conversations; run DNS lookups and port scans from Guard's probes",
  write:
    'Change what your role lets you change in your organizations: create, edit, pause and delete monitors and devices, ' +
    'work incidents, manage status pages, notification channels and integrations (admins and owners); save assistant conversations',
  [API_KEYS_SCOPE]:
    'Create and revoke API keys in your organizations (admins and owners): keys keep working after you sign out, with at most your rights',
  [ADMIN_SCOPE]: 'Administer this Guard: users, organizations, applications and signing keys (platform administrators)',
}

/** Every grant comes with a refresh token, so the access lasts beyond this visit: the page says so. */
export const LASTING_ACCESS_TEXT =
  'Keep this access while you are away: it renews itself while the application uses it, and ends after 30 days unused or when you change your password'

/** Parsed and written again, so whatever the form sent, the query is percent-encoded in the Location header. */
const authorizeUrl = (query: string) => `/api/oauth/authorize?${new URLSearchParams(query)}`

/** The authorize endpoint refuses a bad request before sending anyone here; this page just shows why. */
function validated(...args: Parameters<typeof validateAuthorization>) {
  try {
    return validateAuthorization(...args)
  } catch (error) {
    if (error instanceof OAuthError) return error
    throw error
  }
}

export function consentPages(app: GuardFastify, ctx: OAuthContext): void {
  /** The consent page receives the authorization request itself, and re-validates it. */
  app.get(
    CONSENT_PATH,
    {
      schema: {
        summary: 'Consent page (HTML form)',
        tags: ['pages'],
        querystring: authorizeQuery,
        response: {
          200: htmlResponse('The consent form'),
          303: redirect,
          400: htmlOrProblemResponse(
            'HTML error page for an invalid authorization request; problem details for a malformed query (a repeated parameter)',
          ),
        },
      },
    },
    async (request, reply) => {
      const query = request.query
      const resolved = await resolveClient(ctx.sql, query)
      if ('failure' in resolved) return sendErrorPage(reply, 400, resolved.failure)
      const authorization = validated(resolved.client, resolved.redirectUri, query, ctx.resources)
      if (authorization instanceof OAuthError) return sendErrorPage(reply, 400, authorization.description)
      const original = new URLSearchParams(request.url.split('?')[1] ?? '').toString()
      const session = await currentSession(ctx, request)
      if (!session) return reply.redirect(authorizeUrl(original), 303)
      const csrf = csrfToken(request, reply, ctx.secrets.cookieSigning, isSecureIssuer(ctx))
      // validateAuthorization let through only known scopes.
      const items = [...authorization.scopes.map((scope) => SCOPE_TEXT[scope as Scope]), LASTING_ACCESS_TEXT].map(
        (text) => html`<li>${text}</li>`,
      )
      // RFC 8707: the user sees where the access will be used, not just what it allows.
      const resource = authorization.resource
        ? html`<p>This access works only at <strong>${authorization.resource}</strong>: Guard's monitoring tools for assistants (MCP).</p>`
        : ''
      // A self-registered name is a claim anyone can make: the address the answer goes to is not.
      const unverified = resolved.client.registeredDynamically
        ? html`<p>This application registered itself, so Guard has not checked its name. Your answer goes back to <strong>${new URL(resolved.redirectUri).host || resolved.redirectUri}</strong>.</p>`
        : ''
      return sendPage(
        reply,
        200,
        'Allow access',
        html`<h1>Allow ${resolved.client.name} to access your Guard account?</h1>
<p>${resolved.client.name} is asking to:</p><ul>${items}</ul>
${resource}
${unverified}
<form method="post" action="${CONSENT_PATH}">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="request" value="${original}">
<div class="actions"><button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button></div>
</form>`,
      )
    },
  )

  app.post(
    CONSENT_PATH,
    {
      schema: {
        summary: 'Consent form submission',
        tags: ['pages'],
        consumes: ['application/x-www-form-urlencoded'],
        body: z.object({ csrf: z.string(), request: z.string().max(8192), decision: z.enum(['allow', 'deny']) }),
        response: {
          303: redirect,
          400: htmlOrProblemResponse(
            'HTML error page for an invalid authorization request; problem details for a missing, invalid or repeated form field',
          ),
          403: htmlResponse('HTML error page: the CSRF token is missing or invalid'),
        },
      },
    },
    async (request, reply) => {
      const form = request.body
      if (!csrfValid(request, ctx.secrets.cookieSigning, form.csrf)) {
        return sendErrorPage(reply, 403, 'The form expired or came from another site. Start the sign-in again.')
      }
      const query = authorizeQuery.parse(Object.fromEntries(new URLSearchParams(form.request)))
      const resolved = await resolveClient(ctx.sql, query)
      if ('failure' in resolved) return sendErrorPage(reply, 400, resolved.failure)
      const authorization = validated(resolved.client, resolved.redirectUri, query, ctx.resources)
      if (authorization instanceof OAuthError) return sendErrorPage(reply, 400, authorization.description)
      const session = await currentSession(ctx, request)
      if (!session) return reply.redirect(authorizeUrl(form.request), 303)
      if (form.decision === 'deny') {
        const denied = new OAuthError('access_denied', 'the user denied the request')
        return reply.redirect(errorResponseUrl(authorization.redirectUri, ctx.issuer, authorization.state, denied), 303)
      }
      await grantConsent(ctx.sql, session.userId, resolved.client.id, authorization)
      return reply.redirect(authorizeUrl(form.request), 303)
    },
  )
}
