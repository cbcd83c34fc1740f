import { GuardError, type GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { OAuthContext } from '../oauth/context.ts'
import { problemResponses } from '../routes/schemas.ts'
import { recordAudit } from '../services/audit/record.ts'
import { withFactor } from '../services/factors/methods.ts'
import { finishPasskeyAuthentication } from '../services/factors/passkeys/finish-authentication.ts'
import { finishPasskeyRegistration } from '../services/factors/passkeys/finish-registration.ts'
import { authenticationResponse, registrationResponse } from '../services/factors/passkeys/schemas.ts'
import { startPasskeyAuthentication } from '../services/factors/passkeys/start-authentication.ts'
import { startPasskeyRegistration } from '../services/factors/passkeys/start-registration.ts'
import { raiseSession } from '../services/sessions/raise.ts'
import { csrfValid } from './cookies.ts'
import { factorReturnTo, SECURITY_PATH } from './return-to.ts'
import { completeSecondFactor, secondFactorSubject } from './second-factor-subject.ts'
import { mayChangeFactors } from './security-guard.ts'
import { startBrowserSession } from './session.ts'

const mode = z
  .enum(['passwordless', 'second-factor'])
  .describe('passwordless: any passkey of this site, the user found from it; second-factor: the signing-in user’s')
const options = z
  .looseObject({ challenge: z.string() })
  .describe('PublicKeyCredential options for @simplewebauthn/browser')
const done = z.object({ redirect: z.string().describe('where the page goes next') })
const errors = problemResponses(400, 401, 403)

/**
 * The JSON half of the passkey buttons (passkeys.js): options to hand to the browser's WebAuthn
 * call, then its answer to verify. Same-origin JSON with the page's CSRF token.
 */
export function passkeyRoutes(app: GuardFastify, ctx: OAuthContext): void {
  const checkCsrf = (request: Parameters<typeof csrfValid>[0], csrf: string) => {
    if (!csrfValid(request, ctx.secrets.cookieSigning, csrf)) {
      throw new GuardError('FORBIDDEN', 'the page expired or came from another site; reload it')
    }
  }

  app.post(
    '/sign-in/passkey/options',
    {
      schema: {
        summary: 'Passkey sign-in: options for navigator.credentials.get',
        tags: ['pages'],
        body: z.object({ csrf: z.string(), mode }),
        response: { 200: options, ...errors },
      },
    },
    async (request) => {
      checkCsrf(request, request.body.csrf)
      let userId: string | undefined
      if (request.body.mode === 'second-factor') {
        const subject = await secondFactorSubject(ctx, request)
        if (!subject) throw new GuardError('UNAUTHORIZED', 'sign in with your password first')
        userId = subject.userId
      }
      return { ...(await startPasskeyAuthentication(ctx.sql, { issuer: ctx.issuer, userId })) }
    },
  )

  app.post(
    '/sign-in/passkey/verify',
    {
      schema: {
        summary: 'Passkey sign-in: verify the signature, then sign in (or confirm the second factor)',
        tags: ['pages'],
        body: z.object({ csrf: z.string(), mode, return_to: factorReturnTo, response: authenticationResponse }),
        response: { 200: done, ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body
      checkCsrf(request, body.csrf)
      const subject = body.mode === 'second-factor' ? await secondFactorSubject(ctx, request) : undefined
      if (body.mode === 'second-factor' && !subject)
        throw new GuardError('UNAUTHORIZED', 'sign in with your password first')
      const verified = await finishPasskeyAuthentication(ctx.sql, {
        issuer: ctx.issuer,
        userId: subject?.userId,
        response: body.response,
      })
      if (subject) {
        await completeSecondFactor(ctx, request, reply, subject, verified.method)
      } else {
        // The passkey verified the user (required): possession and a PIN or biometric, two factors.
        await startBrowserSession(ctx, request, reply, verified.userId, withFactor([], verified.method))
      }
      return { redirect: body.return_to }
    },
  )

  app.post(
    `${SECURITY_PATH}/passkeys/options`,
    {
      schema: {
        summary: 'Add a passkey: options for navigator.credentials.create',
        tags: ['pages'],
        body: z.object({ csrf: z.string() }),
        response: { 200: options, ...errors },
      },
    },
    async (request) => {
      checkCsrf(request, request.body.csrf)
      const session = await mayChangeFactors(ctx, request)
      return { ...(await startPasskeyRegistration(ctx.sql, { issuer: ctx.issuer, userId: session.userId })) }
    },
  )

  app.post(
    `${SECURITY_PATH}/passkeys/verify`,
    {
      schema: {
        summary: 'Add a passkey: verify the new credential and keep it',
        tags: ['pages'],
        body: z.object({ csrf: z.string(), name: z.string().max(100), response: registrationResponse }),
        response: { 200: done, ...problemResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      checkCsrf(request, request.body.csrf)
      const session = await mayChangeFactors(ctx, request)
      const added = await finishPasskeyRegistration(ctx.sql, {
        issuer: ctx.issuer,
        userId: session.userId,
        name: request.body.name || 'Passkey',
        response: request.body.response,
      })
      // Creating it required user verification on the authenticator: this session has now proved it.
      await raiseSession(ctx.sql, {
        sessionId: session.id,
        amr: withFactor(session.amr, added.deviceType === 'singleDevice' ? 'hwk' : 'swk'),
      })
      await recordAudit(
        ctx.sql,
        {
          type: 'user',
          id: session.userId,
          label: session.userId,
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        },
        { action: 'second_factor.passkey_added', targetType: 'passkey', targetId: added.id },
      )
      return { redirect: SECURITY_PATH }
    },
  )
}
