import { type AccessTokenClaims, GuardError } from '@guard/shared'
import type { Caller } from '../../context.ts'
import { intersectPermissions, permissionsOfRole, permissionsOfScopes } from './permissions.ts'

/**
 * A user's access token scoped to one organization: the one the request names (header
 * X-Organization-Id) or the first of the `organizations` claim. A token without that claim (the
 * organizations scope was not granted) cannot be scoped, so it is refused. It may do what both the
 * member's role there and the token's scopes allow, so an application the user let read cannot
 * write, whatever the user's role.
 */
export function callerFromToken(claims: AccessTokenClaims, requestedOrganization: string | undefined): Caller {
  const organizations = (claims.organizations ?? []).filter(
    (organization): organization is typeof organization & { id: string } => typeof organization.id === 'string',
  )
  if (organizations.length === 0) {
    throw new GuardError('FORBIDDEN', 'The access token carries no organizations; request the organizations scope')
  }
  const chosen = requestedOrganization
    ? organizations.find((organization) => organization.id === requestedOrganization)
    : organizations[0]
  if (!chosen) throw new GuardError('FORBIDDEN', 'You are not a member of the organization named by X-Organization-Id')
  return {
    principal: { kind: 'user', id: claims.sub },
    organizationId: chosen.id,
    organizationIds: organizations.map((organization) => organization.id),
    permissions: intersectPermissions(
      permissionsOfRole(chosen.role),
      permissionsOfScopes(claims.scope.split(' ').filter(Boolean)),
    ),
    ...(chosen.role ? { role: chosen.role } : {}),
  }
}
