import { GuardError } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import { authenticateAdmin } from '../admin/authenticate.ts'
import type { OAuthContext } from '../oauth/context.ts'
import { OAuthError } from '../oauth/oauth-error.ts'
import { ADMIN_SCOPE } from '../oauth/scopes.ts'
import { ADMIN_TOKEN_PREFIX } from '../services/admin-tokens/ensure.ts'
import type { Actor } from '../services/audit/record.ts'
import { findClient } from '../services/clients/client.ts'
import type { OrganizationCaller } from '../services/memberships/policy.ts'
import type { MembershipRole } from '../services/organizations/add-member.ts'
import { verifyAccessToken } from '../services/tokens/verify-access.ts'
/**
 * Who calls a route of one organization, and with what standing there: their membership role now
 * (read from the store, not from the token, so a demoted member loses rights at once), whether the
 * token is a first-party application's (membership is no scope's to give to a third-party one) and
 * whether they are a platform administrator (an admin token, or an admin user's token with the
 * admin scope).
 */
export async function organizationCaller(
  ctx: OAuthContext,
  request: FastifyRequest,
  organizationId: string,
): Promise<OrganizationCaller & { actor: Actor }> {
  const token = request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
  if (!token) throw new GuardError('UNAUTHORIZED', 'an access token is required (Authorization: Bearer)')
  if (token.startsWith(ADMIN_TOKEN_PREFIX)) {
    return { actor: await authenticateAdmin(ctx, request), role: null, firstParty: true, platformAdmin: true }
  }
  let verified: Awaited<ReturnType<typeof verifyAccessToken>>
  try {
    verified = await verifyAccessToken(ctx.sql, ctx, token)
  } catch (error) {
    if (error instanceof OAuthError) throw new GuardError('UNAUTHORIZED', error.description)
    throw error
  }
  const { rows } = await ctx.sql.query<{ email: string; user_role: string; member_role: MembershipRole | null }>(
    `SELECT u.email, u.role AS user_role, m.role AS member_role FROM identity.users u
       LEFT JOIN identity.memberships m ON m.user_id = u.id AND m.organization_id = $2
      WHERE u.id = $1 AND u.disabled_at IS NULL`,
    [verified.userId, organizationId],
  )
  const user = rows[0]
  if (!user) throw new GuardError('UNAUTHORIZED', 'the user of this token is disabled or deleted')
  return {
    actor: {
      type: 'user',
      id: verified.userId,
      label: user.email,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    },
    role: user.member_role,
    firstParty: (await findClient(ctx.sql, verified.clientId))?.firstParty === true,
    platformAdmin: user.user_role === 'admin' && verified.scopes.includes(ADMIN_SCOPE),
  }
}
