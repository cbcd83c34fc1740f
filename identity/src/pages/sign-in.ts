import type { GuardFastify } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { isSecureIssuer, type OAuthContext } from '../oauth/context.ts'
import { htmlResponse, problemResponse, redirect } from '../oauth/schemas.ts'
import { createSession, SESSION_SECONDS } from '../services/sessions/create.ts'
import { authenticateUser } from '../services/users/authenticate.ts'
import { cookie, csrfToken, csrfValid, SESSION_COOKIE, signValue } from './cookies.ts'
import { html, sendErrorPage, sendPage } from './html.ts'

export const SIGN_IN_PATH = '/sign-in'

/** Only back into the authorization flow, so the page is no open redirector. */
const returnTo = z
  .string()
  .max(4096)
  .refine((value) => value.startsWith('/api/oauth/authorize?'), 'must be an authorization request')
  // It becomes a Location header: CR/LF there would split the response.
  .refine((value) => !/[\r\n]/.test(value), 'must not contain line breaks')

function signInForm(
  ctx: OAuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { returnTo: string; email: string; error: string | undefined; status: number },
): void {
  const csrf = csrfToken(request, reply, ctx.secrets.cookieSigning, isSecureIssuer(ctx))
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
<input id="email" name="email" type="email" autocomplete="username" required value="${input.email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
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
      signInForm(ctx, request, reply, { returnTo: request.query.return_to, email: '', error: undefined, status: 200 })
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
          403: htmlResponse('HTML error page: the CSRF token is missing or invalid'),
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
      const userId = await authenticateUser(ctx.sql, form.email, form.password)
      if (!userId) {
        signInForm(ctx, request, reply, {
          returnTo: form.return_to,
          email: form.email,
          error: 'Wrong email or password.',
          status: 401,
        })
        return reply
      }
      const sessionId = await createSession(ctx.sql, userId)
      reply.header(
        'Set-Cookie',
        cookie(SESSION_COOKIE, signValue(ctx.secrets.cookieSigning, sessionId), {
          maxAgeSeconds: SESSION_SECONDS,
          secure: isSecureIssuer(ctx),
        }),
      )
      return reply.redirect(form.return_to, 303)
    },
  )
}
