import type { FastifyReply, FastifyRequest } from 'fastify'
import type { OAuthContext } from '../oauth/context.ts'
import { withFactor } from '../services/factors/methods.ts'
import { raiseSession } from '../services/sessions/raise.ts'
import { clearPendingSignIn, readPendingSignIn } from './pending-sign-in.ts'
import { currentSession, startBrowserSession } from './session.ts'

/** Who is proving a second factor: a sign-in past its password, or a signed-in session stepping up. */
export interface FactorSubject {
  userId: string
  amr: string[]
  /** Set for a step-up: the session the factor raises. */
  sessionId: string | undefined
}

export async function secondFactorSubject(
  ctx: OAuthContext,
  request: FastifyRequest,
): Promise<FactorSubject | undefined> {
  const pending = readPendingSignIn(ctx, request)
  if (pending) return { ...pending, sessionId: undefined }
  const session = await currentSession(ctx, request)
  return session ? { userId: session.userId, amr: session.amr, sessionId: session.id } : undefined
}

/** The factor is proved: the pending sign-in becomes a session, or the session is raised. */
export async function completeSecondFactor(
  ctx: OAuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  subject: FactorSubject,
  factor: 'otp' | 'hwk' | 'swk',
): Promise<void> {
  const amr = withFactor(subject.amr, factor)
  if (subject.sessionId) {
    await raiseSession(ctx.sql, { sessionId: subject.sessionId, amr })
    return
  }
  clearPendingSignIn(ctx, reply)
  await startBrowserSession(ctx, request, reply, subject.userId, amr)
}
