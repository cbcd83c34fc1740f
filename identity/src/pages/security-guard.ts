import { GuardError } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import type { OAuthContext } from '../oauth/context.ts'
import { hasSecondFactor, listFactors } from '../services/factors/list-factors.ts'
import type { Session } from '../services/sessions/find.ts'
import { currentSession } from './session.ts'

/**
 * Whether this session may add or remove factors: signed in, and, once the user has a factor,
 * signed in with one; otherwise a stolen password could add the thief's own passkey.
 */
export async function factorChangeAllowed(
  ctx: OAuthContext,
  request: FastifyRequest,
): Promise<{ session: Session | undefined; allowed: boolean }> {
  const session = await currentSession(ctx, request)
  if (!session) return { session, allowed: false }
  if (session.amr.includes('mfa')) return { session, allowed: true }
  return { session, allowed: !hasSecondFactor(await listFactors(ctx.sql, session.userId)) }
}

/** The JSON routes' form of factorChangeAllowed: the session, or a 401/403. */
export async function mayChangeFactors(ctx: OAuthContext, request: FastifyRequest): Promise<Session> {
  const { session, allowed } = await factorChangeAllowed(ctx, request)
  if (!session) throw new GuardError('UNAUTHORIZED', 'sign in first')
  if (!allowed) throw new GuardError('FORBIDDEN', 'confirm it is you with a second factor first')
  return session
}
