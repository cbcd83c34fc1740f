import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { isSecureIssuer, type OAuthContext } from '../oauth/context.ts'
import { listFactors } from '../services/factors/list-factors.ts'
import { cookie, readCookie, signValue, unsignValue } from './cookies.ts'
import { startBrowserSession } from './session.ts'

/**
 * Between the password and the second factor the browser holds no session, only this signed,
 * short-lived cookie naming the user and what was proved so far: nothing that reads sessions
 * (the account page, authorize) takes it for a sign-in.
 */
export const PENDING_COOKIE = 'guard_pending'
const PENDING_SECONDS = 10 * 60

export const SECOND_FACTOR_PATH = '/sign-in/second-factor'

const pending = z.object({ user: z.string(), amr: z.array(z.string()), exp: z.number() })

export function setPendingSignIn(ctx: OAuthContext, reply: FastifyReply, userId: string, amr: string[]): void {
  const value = Buffer.from(
    JSON.stringify({ user: userId, amr, exp: Math.floor(Date.now() / 1000) + PENDING_SECONDS }),
  ).toString('base64url')
  reply.header(
    'Set-Cookie',
    cookie(PENDING_COOKIE, signValue(ctx.secrets.cookieSigning, value), {
      maxAgeSeconds: PENDING_SECONDS,
      secure: isSecureIssuer(ctx),
    }),
  )
}

export function clearPendingSignIn(ctx: OAuthContext, reply: FastifyReply): void {
  reply.header('Set-Cookie', cookie(PENDING_COOKIE, '', { maxAgeSeconds: 0, secure: isSecureIssuer(ctx) }))
}

export function readPendingSignIn(
  ctx: OAuthContext,
  request: FastifyRequest,
): { userId: string; amr: string[] } | undefined {
  const value = unsignValue(ctx.secrets.cookieSigning, readCookie(request, PENDING_COOKIE))
  if (!value) return undefined
  const parsed = pending.safeParse(
    (() => {
      try {
        return JSON.parse(Buffer.from(value, 'base64url').toString('utf8'))
      } catch {
        return undefined
      }
    })(),
  )
  if (!parsed.success || parsed.data.exp * 1000 <= Date.now()) return undefined
  return { userId: parsed.data.user, amr: parsed.data.amr }
}

/**
 * After a right password: a user with a second factor is asked for it before any session
 * exists; one without gets the session at once (authorize sends them to enrolment when an
 * organization of theirs requires a factor).
 */
export async function continueAfterPassword(
  ctx: OAuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { userId: string; returnTo: string },
): Promise<FastifyReply> {
  const factors = await listFactors(ctx.sql, input.userId)
  if (factors.passkeys > 0 || factors.totp) {
    setPendingSignIn(ctx, reply, input.userId, ['pwd'])
    return reply.redirect(`${SECOND_FACTOR_PATH}?${new URLSearchParams({ return_to: input.returnTo })}`, 303)
  }
  await startBrowserSession(ctx, request, reply, input.userId, ['pwd'])
  return reply.redirect(input.returnTo, 303)
}
