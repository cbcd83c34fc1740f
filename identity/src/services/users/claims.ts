import type { OrganizationClaim, Sql } from '@guard/shared'
import { listOrganizationsOf } from '../organizations/list-for-user.ts'

/** The spec's UserInfo claims; nothing else may appear. */
export interface UserClaims {
  sub: string
  email?: string
  name?: string
  picture?: string
  image?: string
  role?: string
  organizations?: OrganizationClaim[]
}

/** Claims filtered by scope: email → email; profile → name, picture, image, role; organizations → memberships. */
export async function userClaims(sql: Sql, userId: string, scopes: readonly string[]): Promise<UserClaims | undefined> {
  const { rows } = await sql.query<{ email: string; name: string; picture: string | null; role: string }>(
    'SELECT email, name, picture, role FROM identity.users WHERE id = $1',
    [userId],
  )
  const user = rows[0]
  if (!user) return undefined
  const claims: UserClaims = { sub: userId }
  if (scopes.includes('email')) claims.email = user.email
  if (scopes.includes('profile')) {
    claims.name = user.name
    claims.role = user.role
    if (user.picture) {
      claims.picture = user.picture
      claims.image = user.picture
    }
  }
  if (scopes.includes('organizations')) claims.organizations = await listOrganizationsOf(sql, userId)
  return claims
}
