import type { GuardFastify } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { isSecureIssuer, type OAuthContext } from '../oauth/context.ts'
import { htmlResponse, problemResponse, redirect } from '../oauth/schemas.ts'
import { recordAudit } from '../services/audit/record.ts'
import { listFactors } from '../services/factors/list-factors.ts'
import { ACR_PHISHING_RESISTANT } from '../services/factors/methods.ts'
import { useRecoveryCode } from '../services/factors/recovery/use.ts'
import { verifyTotp } from '../services/factors/totp/verify.ts'
import { failAttempt, ipKey, releaseAttempt, reserveAttempt } from '../services/sign-in/throttle.ts'
import { csrfToken, csrfValid } from './cookies.ts'
import { html, sendPage } from './html.ts'
import { PASSKEY_SCRIPTS, passkeyButton } from './passkey-assets.ts'
import { SECOND_FACTOR_PATH } from './pending-sign-in.ts'
import { factorReturnTo } from './return-to.ts'
import { completeSecondFactor, type FactorSubject, secondFactorSubject } from './second-factor-subject.ts'
import { SIGN_IN_PATH } from './sign-in.ts'

/** Codes are six digits: far fewer tries than passwords before the user's codes lock. */
const CODE_RULE = { free: 2, lockAfter: 5 }
export const factorKey = (userId: string) => `factor:${userId}`

const pageQuery = z.object({
  return_to: factorReturnTo,
  need: z.literal(ACR_PHISHING_RESISTANT).optional().describe('only a passkey will do (the request asked for it)'),
})

async function secondFactorForm(
  ctx: OAuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  subject: FactorSubject,
  input: { returnTo: string; passkeyOnly: boolean; error: string | undefined; status: number },
): Promise<FastifyReply> {
  const csrf = csrfToken(request, reply, ctx.secrets.cookieSigning, isSecureIssuer(ctx))
  const factors = await listFactors(ctx.sql, subject.userId)
  const codes = !input.passkeyOnly
  return sendPage(
    reply,
    input.status,
    'Confirm it is you',
    html`<h1>Confirm it is you</h1>
${input.error ? html`<p class="error" role="alert">${input.error}</p>` : html``}
${input.passkeyOnly ? html`<p>This needs one of your passkeys.</p>` : html``}
${factors.passkeys > 0 ? passkeyButton({ csrf, mode: 'second-factor', returnTo: input.returnTo, label: 'Use a passkey' }) : html``}
${
  codes && factors.totp
    ? html`<form method="post" action="${SECOND_FACTOR_PATH}">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="return_to" value="${input.returnTo}">
<label for="code">Code from your authenticator app</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" required>
<button type="submit">Confirm</button></form>`
    : html``
}
${
  codes && factors.recoveryCodesLeft > 0
    ? html`<h2>Lost your device?</h2><form method="post" action="${SECOND_FACTOR_PATH}">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="return_to" value="${input.returnTo}">
<label for="recovery">Recovery code</label><input id="recovery" name="code" autocomplete="off" required>
<button type="submit" class="secondary">Use a recovery code</button></form>`
    : html``
}`,
    { scripts: factors.passkeys > 0 ? PASSKEY_SCRIPTS : [] },
  )
}

/** The second step of a sign-in, and the step-up of a signed-in session: a passkey, a TOTP or a recovery code. */
export function secondFactorPages(app: GuardFastify, ctx: OAuthContext): void {
  const toSignIn = (reply: FastifyReply, returnTo: string) =>
    reply.redirect(`${SIGN_IN_PATH}?${new URLSearchParams({ return_to: returnTo })}`, 303)

  app.get(
    SECOND_FACTOR_PATH,
    {
      schema: {
        summary: 'Second-factor page (HTML): passkey, authenticator code or recovery code',
        tags: ['pages'],
        querystring: pageQuery,
        response: {
          200: htmlResponse('The second-factor choices'),
          303: redirect,
          400: problemResponse('return_to is missing or not an address of identity'),
        },
      },
    },
    async (request, reply) => {
      const subject = await secondFactorSubject(ctx, request)
      if (!subject) return toSignIn(reply, request.query.return_to)
      return secondFactorForm(ctx, request, reply, subject, {
        returnTo: request.query.return_to,
        passkeyOnly: request.query.need !== undefined,
        error: undefined,
        status: 200,
      })
    },
  )

  app.post(
    SECOND_FACTOR_PATH,
    {
      schema: {
        summary: 'Second-factor form: an authenticator code or a recovery code',
        tags: ['pages'],
        consumes: ['application/x-www-form-urlencoded'],
        body: z.object({ csrf: z.string(), return_to: factorReturnTo, code: z.string().max(64) }),
        response: {
          303: redirect,
          400: problemResponse('A form field is missing, too long or repeated'),
          401: htmlResponse('The second-factor page again: the code is wrong or already used'),
          403: htmlResponse('The second-factor page again: the CSRF token is invalid'),
          429: htmlResponse('The second-factor page again: too many wrong codes; Retry-After says when to try again'),
        },
      },
    },
    async (request, reply) => {
      const form = request.body
      const subject = await secondFactorSubject(ctx, request)
      if (!subject) return toSignIn(reply, form.return_to)
      const again = (status: number, error: string) =>
        secondFactorForm(ctx, request, reply, subject, { returnTo: form.return_to, passkeyOnly: false, error, status })
      if (!csrfValid(request, ctx.secrets.cookieSigning, form.csrf)) {
        return again(403, 'The form expired. Try again.')
      }
      const reservation = await reserveAttempt(ctx.sql, ctx.throttle, [
        { key: factorKey(subject.userId), rule: CODE_RULE },
        { key: ipKey(request.ip), rule: ctx.throttle.ip },
      ])
      if (!reservation.reserved) {
        reply.header('Retry-After', reservation.retryAfter)
        return again(429, 'Too many wrong codes. Wait a few minutes, then try again.')
      }
      const digits = /^[\d\s]+$/.test(form.code)
      const accepted = digits
        ? await verifyTotp(ctx.sql, { key: ctx.secrets.factorEncryption, userId: subject.userId, code: form.code })
        : await useRecoveryCode(ctx.sql, { userId: subject.userId, code: form.code })
      if (!accepted) {
        const outcome = await failAttempt(ctx.sql, ctx.throttle, reservation.attempt)
        if (outcome.locked.length > 0) {
          await recordAudit(
            ctx.sql,
            {
              type: 'system',
              id: undefined,
              label: 'sign-in throttle',
              ip: request.ip,
              userAgent: request.headers['user-agent'],
            },
            { action: 'sign_in.lock', details: { keys: outcome.locked, lockSeconds: ctx.throttle.lockSeconds } },
          )
        }
        request.log.warn({ userId: subject.userId, ip: request.ip }, 'second factor refused')
        return again(
          401,
          digits ? 'That code is wrong or was already used.' : 'That recovery code is wrong or was already used.',
        )
      }
      await releaseAttempt(ctx.sql, reservation.attempt)
      await ctx.sql.query('DELETE FROM identity.sign_in_throttle WHERE key = $1', [factorKey(subject.userId)])
      if (!digits) {
        await recordAudit(
          ctx.sql,
          {
            type: 'user',
            id: subject.userId,
            label: subject.userId,
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          },
          { action: 'second_factor.recovery_code_used', details: {} },
        )
      }
      await completeSecondFactor(ctx, request, reply, subject, 'otp')
      return reply.redirect(form.return_to, 303)
    },
  )
}
