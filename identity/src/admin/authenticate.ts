import { GuardError } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import type { OAuthContext } from '../oauth/context.ts'
import { OAuthError } from '../oauth/oauth-error.ts'
import { ADMIN_SCOPE } from '../oauth/scopes.ts'
import { authenticateAdminToken } from '../services/admin-tokens/authenticate.ts'
import { ADMIN_TOKEN_PREFIX } from '../services/admin-tokens/ensure.ts'
import type { Actor } from '../services/audit/record.ts'
import { verifyAccessToken } from '../services/tokens/verify-access.ts'

const bearer = (request: FastifyRequest) => request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]

const unauthorized = (message: string) =>
  new GuardError('UNAUTHORIZED', message, {
    hint: 'Send Authorization: Bearer with the admin token from credentials.json, or an admin user’s access token with the admin scope',
  })

/**
 * The admin API's caller: an admin token (the CLI's), or a user access token that carries the
 * `admin` scope of a user whose role is admin right now (a demoted admin loses access at once).
 * No credential or a bad one is 401; a valid one without the right is 403.
 */
export async function authenticateAdmin(ctx: OAuthContext, request: FastifyRequest): Promise<Actor> {
  const token = bearer(request)
  const from = { ip: request.ip, userAgent: request.headers['user-agent'] }
  if (!token) throw unauthorized('the admin API needs a Bearer token')
  if (token.startsWith(ADMIN_TOKEN_PREFIX)) {
    const admin = await authenticateAdminToken(ctx.sql, token)
    if (!admin) throw unauthorized('the admin token is unknown or revoked')
    return { type: 'admin_token', id: admin.id, label: `admin token (${admin.name})`, ...from }
  }
  let verified: Awaited<ReturnType<typeof verifyAccessToken>>
  try {
    verified = await verifyAccessToken(ctx.sql, ctx, token)
  } catch (error) {
    if (error instanceof OAuthError) throw unauthorized(error.description)
    throw error
  }
  const { rows } = await ctx.sql.query<{ email: string; role: string; disabled_at: Date | null }>(
    'SELECT email, role, disabled_at FROM identity.users WHERE id = $1',
    [verified.userId],
  )
  const user = rows[0]
  if (!user || user.disabled_at) throw unauthorized('the user of this token is disabled or deleted')
  if (user.role !== 'admin') throw new GuardError('FORBIDDEN', 'the admin API is for users whose role is admin')
  if (!verified.scopes.includes(ADMIN_SCOPE)) {
    throw new GuardError('FORBIDDEN', 'the access token lacks the admin scope', {
      hint: 'Sign in through a client registered with --scope admin and request scope=admin',
    })
  }
  return { type: 'user', id: verified.userId, label: user.email, ...from }
}
