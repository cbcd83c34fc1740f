import { GuardError, type GuardFastify } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { isSecureIssuer, type OAuthContext } from '../oauth/context.ts'
import { htmlResponse, problemResponse, redirect } from '../oauth/schemas.ts'
import { recordAudit } from '../services/audit/record.ts'
import { listFactors } from '../services/factors/list-factors.ts'
import { withFactor } from '../services/factors/methods.ts'
import { listPasskeys } from '../services/factors/passkeys/list.ts'
import { removePasskey } from '../services/factors/passkeys/remove.ts'
import { renamePasskey } from '../services/factors/passkeys/rename.ts'
import { generateRecoveryCodes } from '../services/factors/recovery/generate.ts'
import { removeTotp } from '../services/factors/totp/remove.ts'
import { startTotpEnrolment } from '../services/factors/totp/start-enrolment.ts'
import { verifyTotp } from '../services/factors/totp/verify.ts'
import type { Session } from '../services/sessions/find.ts'
import { raiseSession } from '../services/sessions/raise.ts'
import { csrfToken, csrfValid } from './cookies.ts'
import { Html, html, sendErrorPage, sendPage } from './html.ts'
import { PASSKEY_SCRIPTS } from './passkey-assets.ts'
import { SECOND_FACTOR_PATH } from './pending-sign-in.ts'
import { factorReturnTo, SECURITY_PATH } from './return-to.ts'
import { factorChangeAllowed } from './security-guard.ts'
import { SIGN_IN_PATH } from './sign-in.ts'

const form = { consumes: ['application/x-www-form-urlencoded'], tags: ['pages'] }
const formResponses = {
  200: htmlResponse('The security page, or the next step of the form'),
  303: redirect,
  400: problemResponse('A form field is missing, too long or repeated'),
  403: htmlResponse('CSRF token invalid'),
  404: htmlResponse('No such passkey or authenticator app of yours'),
  409: htmlResponse('An authenticator app is already set up'),
}
const withReturn = { return_to: factorReturnTo.optional() }

/**
 * The signed-in user's second factors: passkeys (add, rename, remove), an authenticator app (TOTP)
 * and recovery codes. A member whose organization requires a factor is sent here by authorize,
 * with `return_to` to continue once enrolled.
 */
export function securityPages(app: GuardFastify, ctx: OAuthContext): void {
  const hidden = (csrf: string, returnTo: string | undefined) =>
    html`<input type="hidden" name="csrf" value="${csrf}">${returnTo ? html`<input type="hidden" name="return_to" value="${returnTo}">` : html``}`

  const show = async (
    request: FastifyRequest,
    reply: FastifyReply,
    session: Session,
    input: { status: number; returnTo: string | undefined; notice?: Html | string | undefined },
  ) => {
    const csrf = csrfToken(request, reply, ctx.secrets.cookieSigning, isSecureIssuer(ctx))
    const factors = await listFactors(ctx.sql, session.userId)
    const passkeys = await listPasskeys(ctx.sql, session.userId)
    const rows = passkeys.map(
      (
        passkey,
      ) => html`<li><strong>${passkey.name}</strong> · ${passkey.synced ? 'synced' : 'this device only'} · added ${passkey.createdAt}${passkey.lastUsedAt ? html` · last used ${passkey.lastUsedAt}` : html``}
<form method="post" action="${SECURITY_PATH}/passkeys/rename">${hidden(csrf, undefined)}<input type="hidden" name="id" value="${passkey.id}"><input name="name" aria-label="New name" maxlength="100" required value="${passkey.name}"><button type="submit" class="secondary">Rename</button></form>
<form method="post" action="${SECURITY_PATH}/passkeys/remove">${hidden(csrf, undefined)}<input type="hidden" name="id" value="${passkey.id}"><button type="submit" class="secondary">Remove</button></form></li>`,
    )
    const enrolling = input.returnTo
      ? html`<p role="status">Your organization requires a second factor. Add a passkey or an authenticator app, then <a href="${input.returnTo}">continue</a>.</p>`
      : html``
    return sendPage(
      reply,
      input.status,
      'Sign-in security',
      html`<h1>Sign-in security</h1>
${enrolling}
${input.notice ? html`<div role="status">${input.notice instanceof Html ? input.notice : html`<p>${input.notice}</p>`}</div>` : html``}
<h2>Passkeys</h2>
${rows.length > 0 ? html`<ul>${rows}</ul>` : html`<p class="muted">No passkey yet.</p>`}
<p class="error" role="alert" id="passkey-error" hidden></p>
<label for="passkey-name">Name of the new passkey</label><input id="passkey-name" maxlength="100" value="Passkey">
<button type="button" data-passkey-register data-csrf="${csrf}">Add a passkey</button>
<h2>Authenticator app</h2>
${
  factors.totp
    ? html`<p>Set up.</p><form method="post" action="${SECURITY_PATH}/totp/remove">${hidden(csrf, undefined)}<button type="submit" class="secondary">Remove the authenticator app</button></form>`
    : html`<form method="post" action="${SECURITY_PATH}/totp">${hidden(csrf, input.returnTo)}<button type="submit">Set up an authenticator app</button></form>`
}
<h2>Recovery codes</h2>
<p>${String(factors.recoveryCodesLeft)} unused.</p>
<form method="post" action="${SECURITY_PATH}/recovery-codes">${hidden(csrf, input.returnTo)}<button type="submit" class="secondary">New recovery codes</button></form>
<p><a href="/account">Back to your account</a></p>`,
      { scripts: PASSKEY_SCRIPTS },
    )
  }

  /** The session, or the reply that sends the browser to sign in or to confirm a factor first. */
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    const { session, allowed } = await factorChangeAllowed(ctx, request)
    if (!session) {
      reply.redirect(`${SIGN_IN_PATH}?${new URLSearchParams({ return_to: SECURITY_PATH })}`, 303)
      return undefined
    }
    if (!allowed) {
      reply.redirect(`${SECOND_FACTOR_PATH}?${new URLSearchParams({ return_to: SECURITY_PATH })}`, 303)
      return undefined
    }
    return session
  }

  const audit = (request: FastifyRequest, session: Session, action: string, targetId?: string) =>
    recordAudit(
      ctx.sql,
      {
        type: 'user',
        id: session.userId,
        label: session.userId,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      },
      { action, ...(targetId ? { targetType: 'passkey', targetId } : {}) },
    )

  const recoveryCodesNotice = (codes: string[]) =>
    html`<p>Your recovery codes. Each works once when you have no passkey or app at hand. Keep them somewhere safe: they are not shown again.</p>
<ul>${codes.map((code) => html`<li><code>${code}</code></li>`)}</ul>`

  app.get(
    SECURITY_PATH,
    {
      schema: {
        summary: 'Sign-in security page (HTML): passkeys, authenticator app, recovery codes',
        tags: ['pages'],
        querystring: z.object(withReturn),
        response: { 200: htmlResponse('The security page'), 303: redirect },
      },
    },
    async (request, reply) => {
      const session = await guard(request, reply)
      if (!session) return reply
      return show(request, reply, session, { status: 200, returnTo: request.query.return_to })
    },
  )

  app.post(
    `${SECURITY_PATH}/totp`,
    {
      schema: {
        ...form,
        summary: 'Start setting up an authenticator app (form)',
        body: z.object({ csrf: z.string(), ...withReturn }),
        response: formResponses,
      },
    },
    async (request, reply) => {
      const session = await guard(request, reply)
      if (!session) return reply
      if (!csrfValid(request, ctx.secrets.cookieSigning, request.body.csrf))
        return sendErrorPage(reply, 403, 'The form expired.')
      const returnTo = request.body.return_to
      try {
        const enrolment = await startTotpEnrolment(ctx.sql, {
          key: ctx.secrets.factorEncryption,
          userId: session.userId,
        })
        const csrf = csrfToken(request, reply, ctx.secrets.cookieSigning, isSecureIssuer(ctx))
        return sendPage(
          reply,
          200,
          'Set up an authenticator app',
          html`<h1>Set up an authenticator app</h1>
<p>Scan this code with your authenticator app, or type the key below.</p>
<div>${new Html(enrolment.qrSvg)}</div>
<p>Key: <code>${enrolment.secret}</code></p>
<form method="post" action="${SECURITY_PATH}/totp/confirm">${hidden(csrf, returnTo)}
<label for="code">The code the app shows now</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" required>
<button type="submit">Confirm</button></form>`,
        )
      } catch (error) {
        if (error instanceof GuardError && error.code === 'CONFLICT') return sendErrorPage(reply, 409, error.message)
        throw error
      }
    },
  )

  app.post(
    `${SECURITY_PATH}/totp/confirm`,
    {
      schema: {
        ...form,
        summary: 'Confirm the authenticator app with a code from it (form); shows the recovery codes once',
        body: z.object({ csrf: z.string(), code: z.string().max(16), ...withReturn }),
        response: { ...formResponses, 401: htmlResponse('The code is wrong') },
      },
    },
    async (request, reply) => {
      const session = await guard(request, reply)
      if (!session) return reply
      if (!csrfValid(request, ctx.secrets.cookieSigning, request.body.csrf))
        return sendErrorPage(reply, 403, 'The form expired.')
      const returnTo = request.body.return_to
      const confirmed = await verifyTotp(ctx.sql, {
        key: ctx.secrets.factorEncryption,
        userId: session.userId,
        code: request.body.code,
        confirming: true,
      })
      if (!confirmed) {
        return show(request, reply, session, {
          status: 401,
          returnTo,
          notice: 'That code is wrong: set up the app again.',
        })
      }
      // The code proved the app: this session now has two factors.
      await raiseSession(ctx.sql, { sessionId: session.id, amr: withFactor(session.amr, 'otp') })
      await audit(request, session, 'second_factor.totp_added')
      const codes = await generateRecoveryCodes(ctx.sql, session.userId)
      return show(
        request,
        reply,
        { ...session, amr: withFactor(session.amr, 'otp') },
        {
          status: 200,
          returnTo,
          notice: html`<p>The authenticator app is set up.</p>${recoveryCodesNotice(codes)}`,
        },
      )
    },
  )

  app.post(
    `${SECURITY_PATH}/totp/remove`,
    {
      schema: {
        ...form,
        summary: 'Remove the authenticator app (form)',
        body: z.object({ csrf: z.string() }),
        response: formResponses,
      },
    },
    async (request, reply) => {
      const session = await guard(request, reply)
      if (!session) return reply
      if (!csrfValid(request, ctx.secrets.cookieSigning, request.body.csrf))
        return sendErrorPage(reply, 403, 'The form expired.')
      try {
        await removeTotp(ctx.sql, session.userId)
      } catch (error) {
        if (error instanceof GuardError) return sendErrorPage(reply, 404, error.message)
        throw error
      }
      await audit(request, session, 'second_factor.totp_removed')
      return show(request, reply, session, {
        status: 200,
        returnTo: undefined,
        notice: 'The authenticator app is removed.',
      })
    },
  )

  app.post(
    `${SECURITY_PATH}/recovery-codes`,
    {
      schema: {
        ...form,
        summary: 'Replace the recovery codes (form); shows the new ones once',
        body: z.object({ csrf: z.string(), ...withReturn }),
        response: formResponses,
      },
    },
    async (request, reply) => {
      const session = await guard(request, reply)
      if (!session) return reply
      if (!csrfValid(request, ctx.secrets.cookieSigning, request.body.csrf))
        return sendErrorPage(reply, 403, 'The form expired.')
      const codes = await generateRecoveryCodes(ctx.sql, session.userId)
      await audit(request, session, 'second_factor.recovery_codes_generated')
      return show(request, reply, session, {
        status: 200,
        returnTo: request.body.return_to,
        notice: recoveryCodesNotice(codes),
      })
    },
  )

  const passkeyForm = z.object({ csrf: z.string(), id: z.string().max(100) })
  app.post(
    `${SECURITY_PATH}/passkeys/rename`,
    {
      schema: {
        ...form,
        summary: 'Rename one of my passkeys (form)',
        body: passkeyForm.extend({ name: z.string().max(100) }),
        response: formResponses,
      },
    },
    async (request, reply) => {
      const session = await guard(request, reply)
      if (!session) return reply
      if (!csrfValid(request, ctx.secrets.cookieSigning, request.body.csrf))
        return sendErrorPage(reply, 403, 'The form expired.')
      const name = request.body.name.trim()
      if (!name)
        return show(request, reply, session, { status: 400, returnTo: undefined, notice: 'A passkey needs a name.' })
      try {
        await renamePasskey(ctx.sql, { userId: session.userId, passkeyId: request.body.id, name })
      } catch (error) {
        if (error instanceof GuardError) return sendErrorPage(reply, 404, error.message)
        throw error
      }
      return show(request, reply, session, { status: 200, returnTo: undefined, notice: 'The passkey is renamed.' })
    },
  )

  app.post(
    `${SECURITY_PATH}/passkeys/remove`,
    { schema: { ...form, summary: 'Remove one of my passkeys (form)', body: passkeyForm, response: formResponses } },
    async (request, reply) => {
      const session = await guard(request, reply)
      if (!session) return reply
      if (!csrfValid(request, ctx.secrets.cookieSigning, request.body.csrf))
        return sendErrorPage(reply, 403, 'The form expired.')
      try {
        await removePasskey(ctx.sql, { userId: session.userId, passkeyId: request.body.id })
      } catch (error) {
        if (error instanceof GuardError) return sendErrorPage(reply, 404, error.message)
        throw error
      }
      await audit(request, session, 'second_factor.passkey_removed', request.body.id)
      return show(request, reply, session, { status: 200, returnTo: undefined, notice: 'The passkey is removed.' })
    },
  )
}
