import { GuardError, type GuardFastify } from '@guard/shared'
import type { FastifyReply } from 'fastify'
import { z } from 'zod'
import { isSecureIssuer, type OAuthContext } from '../oauth/context.ts'
import { htmlOrProblemResponse, htmlResponse } from '../oauth/schemas.ts'
import { recordAudit } from '../services/audit/record.ts'
import { acceptInvitation } from '../services/invitations/accept.ts'
import { ACCEPT_PATH } from '../services/invitations/create.ts'
import { findPendingInvitation, type PendingInvitation } from '../services/invitations/view.ts'
import { createSession, SESSION_SECONDS } from '../services/sessions/create.ts'
import { cookie, csrfToken, csrfValid, SESSION_COOKIE, signValue } from './cookies.ts'
import { html, sendErrorPage, sendPage } from './html.ts'
import { currentSession } from './session.ts'
import { SIGN_IN_PATH } from './sign-in.ts'

const token = z.string().min(20).max(100)

/**
 * The page an invitation link opens: a signed-in invitee accepts with one click; a new one sets
 * a name and password; an existing user who is signed out signs in first and comes back here.
 */
export function invitationPages(app: GuardFastify, ctx: OAuthContext): void {
  const refuse = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof GuardError)) throw error
    return sendErrorPage(reply, error.code === 'FORBIDDEN' ? 403 : error.code === 'CONFLICT' ? 409 : 400, error.message)
  }

  app.get(
    ACCEPT_PATH,
    {
      schema: {
        summary: 'Invitation page (HTML)',
        tags: ['pages'],
        querystring: z.object({ token }),
        response: {
          200: htmlResponse('Accept (signed in), sign in first, or set a name and password'),
          400: htmlOrProblemResponse('HTML error page: the link is unknown, used, revoked or expired'),
        },
      },
    },
    async (request, reply) => {
      let invitation: PendingInvitation
      try {
        invitation = await findPendingInvitation(ctx.sql, request.query.token)
      } catch (error) {
        return refuse(reply, error)
      }
      const csrf = csrfToken(request, reply, ctx.secrets.cookieSigning, isSecureIssuer(ctx))
      const heading = html`<h1>Join ${invitation.organizationName} on Guard</h1>
<p>${invitation.email} is invited as <strong>${invitation.role}</strong>.</p>`
      const session = await currentSession(ctx, request)
      if (session) {
        return sendPage(
          reply,
          200,
          'Invitation',
          html`${heading}<form method="post" action="${ACCEPT_PATH}">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="token" value="${request.query.token}">
<button type="submit">Accept</button></form>`,
        )
      }
      const { rows } = await ctx.sql.query('SELECT 1 FROM identity.users WHERE lower(email) = lower($1)', [
        invitation.email,
      ])
      if (rows.length > 0) {
        const back = `${ACCEPT_PATH}?${new URLSearchParams({ token: request.query.token })}`
        return sendPage(
          reply,
          200,
          'Invitation',
          html`${heading}<p><a href="${SIGN_IN_PATH}?${new URLSearchParams({ return_to: back }).toString()}">Sign in to accept</a></p>`,
        )
      }
      return sendPage(
        reply,
        200,
        'Invitation',
        html`${heading}<form method="post" action="${ACCEPT_PATH}">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="token" value="${request.query.token}">
<label for="name">Your name</label><input id="name" name="name" required autocomplete="name">
<label for="password">Choose a password (12 characters or more)</label>
<input id="password" name="password" type="password" minlength="12" required autocomplete="new-password">
<button type="submit">Create account and join</button></form>`,
      )
    },
  )

  app.post(
    ACCEPT_PATH,
    {
      schema: {
        summary: 'Invitation acceptance (form)',
        tags: ['pages'],
        consumes: ['application/x-www-form-urlencoded'],
        body: z.object({
          csrf: z.string(),
          token,
          name: z.string().max(200).optional(),
          password: z.string().max(1024).optional(),
        }),
        response: {
          200: htmlResponse('Joined: the organization is listed in the user’s organizations'),
          400: htmlOrProblemResponse(
            'HTML error page: the link is unknown, used, revoked or expired, or a field is missing',
          ),
          403: htmlResponse('HTML error page: CSRF token invalid, or signed in as another user'),
          409: htmlResponse('HTML error page: accepted already'),
        },
      },
    },
    async (request, reply) => {
      const form = request.body
      if (!csrfValid(request, ctx.secrets.cookieSigning, form.csrf)) {
        return sendErrorPage(reply, 403, 'The form expired or came from another site. Open the invitation link again.')
      }
      const session = await currentSession(ctx, request)
      try {
        if (!session && (!form.name?.trim() || form.password === undefined)) {
          throw new GuardError('VALIDATION_ERROR', 'give your name and a password')
        }
        const accepted = session
          ? await acceptInvitation(ctx.sql, { token: form.token, userId: session.userId })
          : await acceptInvitation(ctx.sql, {
              token: form.token,
              name: form.name?.trim() ?? '',
              password: form.password ?? '',
            })
        await recordAudit(
          ctx.sql,
          {
            type: 'user',
            id: accepted.userId,
            label: accepted.invitation.email,
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          },
          {
            action: 'invitation.accept',
            targetType: 'invitation',
            targetId: accepted.invitation.id,
            details: { organizationId: accepted.invitation.organizationId, role: accepted.invitation.role },
          },
        )
        if (!session) {
          const sessionId = await createSession(ctx.sql, accepted.userId, {
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          })
          reply.header(
            'Set-Cookie',
            cookie(SESSION_COOKIE, signValue(ctx.secrets.cookieSigning, sessionId), {
              maxAgeSeconds: SESSION_SECONDS,
              secure: isSecureIssuer(ctx),
            }),
          )
        }
        return sendPage(
          reply,
          200,
          'Joined',
          html`<h1>You joined ${accepted.invitation.organizationName}</h1><p>Your role there: ${accepted.invitation.role}. Go back to the application and sign in.</p>`,
        )
      } catch (error) {
        return refuse(reply, error)
      }
    },
  )
}
