import type { FastifyReply, FastifyRequest } from 'fastify'
import { isSecureIssuer, type OAuthContext } from '../oauth/context.ts'
import { createSession, SESSION_SECONDS } from '../services/sessions/create.ts'
import { findSession, type Session } from '../services/sessions/find.ts'
import { cookie, readCookie, SESSION_COOKIE, signValue, unsignValue } from './cookies.ts'

/** The signed-in user of this browser, from the signed session cookie. */
export async function currentSession(ctx: OAuthContext, request: FastifyRequest): Promise<Session | undefined> {
  const id = unsignValue(ctx.secrets.cookieSigning, readCookie(request, SESSION_COOKIE))
  return id ? findSession(ctx.sql, id) : undefined
}

/**
 * Signs this browser in as `userId`: a new session, remembered in the signed session cookie. `amr`
 * (RFC 8176) says how, and reaches the ID tokens issued in this session.
 */
export async function startBrowserSession(
  ctx: OAuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  amr: readonly string[] = ['pwd'],
): Promise<void> {
  const sessionId = await createSession(
    ctx.sql,
    userId,
    { ip: request.ip, userAgent: request.headers['user-agent'] },
    amr,
  )
  reply.header(
    'Set-Cookie',
    cookie(SESSION_COOKIE, signValue(ctx.secrets.cookieSigning, sessionId), {
      maxAgeSeconds: SESSION_SECONDS,
      secure: isSecureIssuer(ctx),
    }),
  )
}
