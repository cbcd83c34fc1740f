import { GuardError, type GuardFastify } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { isSecureIssuer, type OAuthContext } from '../oauth/context.ts'
import { htmlOrProblemResponse, htmlResponse, problemResponse, redirect } from '../oauth/schemas.ts'
import { listSessions, revokeSession } from '../services/sessions/list.ts'
import { accountKey, failAttempt, ipKey, releaseAttempt, reserveAttempt } from '../services/sign-in/throttle.ts'
import { endUserSessions } from '../services/users/end-sessions.ts'
import { hashPassword, verifyPassword } from '../services/users/password.ts'
import { csrfToken, csrfValid } from './cookies.ts'
import { html, sendErrorPage, sendPage } from './html.ts'
import { currentSession } from './session.ts'
import { SIGN_IN_PATH } from './sign-in.ts'

export const ACCOUNT_PATH = '/account'

/**
 * The signed-in user's own page: browser sessions (each can be ended) and a password change,
 * which ends every other session and every token family.
 */
export function accountPages(app: GuardFastify, ctx: OAuthContext): void {
  const show = async (request: FastifyRequest, reply: FastifyReply, status: number, notice?: string) => {
    const session = await currentSession(ctx, request)
    if (!session) return reply.redirect(`${SIGN_IN_PATH}?${new URLSearchParams({ return_to: ACCOUNT_PATH })}`, 302)
    const csrf = csrfToken(request, reply, ctx.secrets.cookieSigning, isSecureIssuer(ctx))
    const sessions = await listSessions(ctx.sql, session.userId)
    const rows = sessions.map(
      (
        item,
      ) => html`<li>${item.userAgent ?? 'unknown browser'} · ${item.ip ?? 'unknown address'} · signed in ${item.authTime}
${
  item.id === session.id
    ? html` <strong>(this browser)</strong>`
    : html`<form method="post" action="${ACCOUNT_PATH}/sessions/end"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="id" value="${item.id}"><button type="submit" class="secondary">Sign out</button></form>`
}</li>`,
    )
    return sendPage(
      reply,
      status,
      'Your account',
      html`<h1>Your account</h1>
${notice ? html`<p role="status">${notice}</p>` : html``}
<h2>Where you are signed in</h2><ul>${rows}</ul>
<h2>Change your password</h2>
<form method="post" action="${ACCOUNT_PATH}/password">
<input type="hidden" name="csrf" value="${csrf}">
<label for="current">Current password</label><input id="current" name="current" type="password" autocomplete="current-password" required>
<label for="new">New password (12 characters or more)</label><input id="new" name="new" type="password" minlength="12" autocomplete="new-password" required>
<button type="submit">Change password</button>
</form>`,
    )
  }

  app.get(
    ACCOUNT_PATH,
    {
      schema: {
        summary: 'Account page (HTML): sessions and password',
        tags: ['pages'],
        response: { 200: htmlResponse('Sessions and the password form'), 302: redirect },
      },
    },
    (request, reply) => show(request, reply, 200),
  )

  const form = { consumes: ['application/x-www-form-urlencoded'], tags: ['pages'] }
  app.post(
    `${ACCOUNT_PATH}/sessions/end`,
    {
      schema: {
        ...form,
        summary: 'End one of my sessions (form)',
        body: z.object({ csrf: z.string(), id: z.string().max(100) }),
        response: {
          200: htmlResponse('The account page'),
          302: redirect,
          400: problemResponse('A form field is missing or repeated'),
          403: htmlResponse('CSRF token invalid'),
          404: htmlResponse('No such session of yours'),
        },
      },
    },
    async (request, reply) => {
      const session = await currentSession(ctx, request)
      if (!session) return reply.redirect(ACCOUNT_PATH, 302)
      if (!csrfValid(request, ctx.secrets.cookieSigning, request.body.csrf))
        return sendErrorPage(reply, 403, 'The form expired.')
      try {
        await revokeSession(ctx.sql, { userId: session.userId, sessionId: request.body.id })
      } catch (error) {
        if (error instanceof GuardError) return sendErrorPage(reply, 404, error.message)
        throw error
      }
      return show(request, reply, 200, 'That session is signed out.')
    },
  )

  app.post(
    `${ACCOUNT_PATH}/password`,
    {
      schema: {
        ...form,
        summary: 'Change my password (form)',
        body: z.object({ csrf: z.string(), current: z.string().max(1024), new: z.string().max(1024) }),
        response: {
          200: htmlResponse('The account page, saying whether the password changed'),
          302: redirect,
          400: htmlOrProblemResponse(
            'The account page: the new password is too short; problem details for a missing field',
          ),
          403: htmlResponse('The account page: the current password is wrong, or the CSRF token invalid'),
          429: htmlResponse('Too many wrong passwords'),
        },
      },
    },
    async (request, reply) => {
      const session = await currentSession(ctx, request)
      if (!session) return reply.redirect(ACCOUNT_PATH, 302)
      if (!csrfValid(request, ctx.secrets.cookieSigning, request.body.csrf))
        return sendErrorPage(reply, 403, 'The form expired.')
      const { rows } = await ctx.sql.query<{ email: string; password_hash: string }>(
        'SELECT email, password_hash FROM identity.users WHERE id = $1',
        [session.userId],
      )
      const user = rows[0]
      if (!user) return reply.redirect(ACCOUNT_PATH, 302)
      if (request.body.new.length < 12)
        return show(request, reply, 400, 'The new password needs 12 characters or more.')
      // Reserved before the check, so parallel guesses get no more checks than sequential ones.
      const reservation = await reserveAttempt(ctx.sql, ctx.throttle, [
        { key: accountKey(user.email), rule: ctx.throttle.account },
        { key: ipKey(request.ip), rule: ctx.throttle.ip },
      ])
      if (!reservation.reserved) {
        return show(request, reply, 429, 'Too many wrong passwords. Wait a few minutes, then try again.')
      }
      if (!(await verifyPassword(request.body.current, user.password_hash))) {
        await failAttempt(ctx.sql, ctx.throttle, reservation.attempt)
        return show(request, reply, 403, 'The current password is wrong.')
      }
      await releaseAttempt(ctx.sql, reservation.attempt)
      await ctx.sql.transaction(async (tx) => {
        await tx.query('UPDATE identity.users SET password_hash = $2 WHERE id = $1', [
          session.userId,
          await hashPassword(request.body.new),
        ])
        await endUserSessions(tx, session.userId, { sessionId: session.id })
      })
      return show(request, reply, 200, 'Your password is changed; every other session is signed out.')
    },
  )
}
