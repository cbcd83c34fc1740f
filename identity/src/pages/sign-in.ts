import { type GuardFastify, toLocationPath } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { isSecureIssuer, type OAuthContext } from '../oauth/context.ts'
import { htmlResponse, problemResponse, redirect } from '../oauth/schemas.ts'
import { recordAudit } from '../services/audit/record.ts'
import { findRequiredProviders } from '../services/federation/find-required-provider.ts'
import type { FederationProvider } from '../services/federation/provider.ts'
import {
  type Attempt,
  accountKey,
  failAttempt,
  ipKey,
  recordSuccess,
  releaseAttempt,
  reserveAttempt,
} from '../services/sign-in/throttle.ts'
import { authenticateUser } from '../services/users/authenticate.ts'
import { csrfToken, csrfValid } from './cookies.ts'
import { federationSection } from './federation.ts'
import { html, sendErrorPage, sendPage } from './html.ts'
import { PASSKEY_SCRIPTS, passkeySignIn } from './passkey-assets.ts'
import { continueAfterPassword } from './pending-sign-in.ts'

export const SIGN_IN_PATH = '/sign-in'

/** One message for every lock, whichever rule locked and whether the account exists. */
export const LOCKED_MESSAGE = 'Too many failed sign-in attempts. Wait a few minutes, then try again.'

/** Only back into the authorization flow, an invitation or the account page: the page is no open redirector. */
export const returnTo = z
  .string()
  .max(4096)
  .refine(
    (value) =>
      value.startsWith('/api/oauth/authorize?') || value.startsWith('/invitations/accept?') || value === '/account',
    'must be an authorization request, an invitation or the account page',
  )
  // It becomes a Location header: CR/LF there would split the response, and any character beyond
  // printable ASCII is percent-encoded, since Node refuses most of them in a header.
  .refine((value) => !/[\r\n]/.test(value), 'must not contain line breaks')
  .transform(toLocationPath)

/** Shown after a correct password, so the message reveals nothing to someone who does not know it. */
const requiredFederationMessage = (providers: FederationProvider[]) =>
  `Your organization requires signing in with ${providers.map((provider) => provider.name).join(' or ')}: use the button below.`

async function signInForm(
  ctx: OAuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  input: {
    returnTo: string
    email: string
    error: string | undefined
    status: number
    federation?: FederationProvider[] | undefined
  },
): Promise<void> {
  const csrf = csrfToken(request, reply, ctx.secrets.cookieSigning, isSecureIssuer(ctx))
  const federation = await federationSection(ctx, {
    returnTo: input.returnTo,
    email: input.email,
    only: input.federation,
  })
  sendPage(
    reply,
    input.status,
    'Sign in',
    html`<h1>Sign in to Guard</h1>
${input.error ? html`<p class="error" role="alert">${input.error}</p>` : html``}
<form method="post" action="${SIGN_IN_PATH}">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="return_to" value="${input.returnTo}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username webauthn" required value="${input.email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
${passkeySignIn({ csrf, returnTo: input.returnTo })}
${federation}`,
    { scripts: PASSKEY_SCRIPTS },
  )
}

export function signInPages(app: GuardFastify, ctx: OAuthContext): void {
  app.get(
    SIGN_IN_PATH,
    {
      schema: {
        summary: 'Sign-in page (HTML form)',
        tags: ['pages'],
        querystring: z.object({ return_to: returnTo }),
        response: {
          200: htmlResponse('The sign-in form'),
          400: problemResponse('Invalid request: return_to is missing or not an authorization request'),
        },
      },
    },
    async (request, reply) => {
      await signInForm(ctx, request, reply, {
        returnTo: request.query.return_to,
        email: '',
        error: undefined,
        status: 200,
      })
      return reply
    },
  )

  app.post(
    SIGN_IN_PATH,
    {
      schema: {
        summary: 'Sign-in form submission',
        tags: ['pages'],
        consumes: ['application/x-www-form-urlencoded'],
        body: z.object({
          email: z.string().max(320),
          password: z.string().max(1024),
          csrf: z.string(),
          return_to: returnTo,
        }),
        response: {
          303: redirect,
          400: problemResponse('Invalid request: a form field is missing, too long or repeated'),
          401: htmlResponse('The sign-in form again: wrong email or password'),
          403: htmlResponse(
            "HTML error page: the CSRF token is missing or invalid; or the sign-in form again: the user's organization requires its upstream sign-in",
          ),
          429: htmlResponse(
            'The sign-in form again: too many failed sign-ins for this account or from this address; Retry-After says when to try again',
          ),
        },
      },
    },
    async (request, reply) => {
      const form = request.body
      if (!csrfValid(request, ctx.secrets.cookieSigning, form.csrf)) {
        return sendErrorPage(
          reply,
          403,
          'The form expired or came from another site. Reload the sign-in page and try again.',
        )
      }
      const policy = ctx.throttle
      const account = accountKey(form.email)
      const ip = ipKey(request.ip)
      const refuse = async (status: 401 | 403 | 429, error: string, federation?: FederationProvider[]) => {
        await signInForm(ctx, request, reply, {
          returnTo: form.return_to,
          email: form.email,
          error,
          status,
          federation,
        })
        return reply
      }
      /** Counts a failure; a lock it causes goes to the log and the audit log. */
      const countFailure = async (attempt: Attempt) => {
        const outcome = await failAttempt(ctx.sql, policy, attempt)
        if (outcome.locked.length > 0) {
          const actor = {
            type: 'system' as const,
            id: undefined,
            label: 'sign-in throttle',
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          }
          await recordAudit(ctx.sql, actor, {
            action: 'sign_in.lock',
            details: { keys: outcome.locked, lockSeconds: policy.lockSeconds },
          })
          request.log.warn({ keys: outcome.locked, ip: request.ip }, 'sign-in locked after repeated failures')
        }
        return outcome
      }
      // Counted before the password is checked, so parallel attempts cannot all pass a check made
      // before any of them failed; and the same answer whether it is right or wrong, so a locked
      // account can be neither guessed into nor probed for existence.
      const reservation = await reserveAttempt(ctx.sql, policy, [
        { key: account, rule: policy.account },
        { key: ip, rule: policy.ip },
      ])
      if (!reservation.reserved) {
        // Hammering a locked account counts against the address.
        const hammer = await reserveAttempt(ctx.sql, policy, [{ key: ip, rule: policy.ip }])
        if (hammer.reserved) await countFailure(hammer.attempt)
        request.log.warn({ email: form.email, ip: request.ip }, 'sign-in refused: locked after failed attempts')
        reply.header('Retry-After', reservation.retryAfter)
        return refuse(429, LOCKED_MESSAGE)
      }
      const userId = await authenticateUser(ctx.sql, form.email, form.password)
      if (!userId) {
        const outcome = await countFailure(reservation.attempt)
        request.log.warn({ email: form.email, ip: request.ip }, 'sign-in failed')
        if (outcome.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, outcome.delayMs))
        return refuse(401, 'Wrong email or password.')
      }
      await releaseAttempt(ctx.sql, reservation.attempt)
      await recordSuccess(ctx.sql, form.email)
      const required = await findRequiredProviders(ctx.sql, userId)
      if (required.length > 0) return refuse(403, requiredFederationMessage(required), required)
      return continueAfterPassword(ctx, request, reply, { userId, returnTo: form.return_to })
    },
  )
}
