import type { FastifyRequest } from 'fastify'
import type { OAuthContext } from '../oauth/context.ts'
import { findSession, type Session } from '../services/sessions/find.ts'
import { readCookie, SESSION_COOKIE, unsignValue } from './cookies.ts'

/** The signed-in user of this browser, from the signed session cookie. */
export async function currentSession(ctx: OAuthContext, request: FastifyRequest): Promise<Session | undefined> {
  const id = unsignValue(ctx.secrets.cookieSigning, readCookie(request, SESSION_COOKIE))
  return id ? findSession(ctx.sql, id) : undefined
}
