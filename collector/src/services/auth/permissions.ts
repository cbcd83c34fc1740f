/**
 * Membership roles (set at identity) to the collector's `<resource>:<action>` permissions.
 * Unknown roles get nothing, so a role added at identity grants access only once mapped here.
 */
const ROLE_PERMISSIONS: Record<string, string[]> = {
  owner: ['*:*'],
  admin: ['*:*'],
  member: ['*:read', '*:write'],
  viewer: ['*:read'],
}

export const permissionsOfRole = (role: string | undefined): string[] => (role && ROLE_PERMISSIONS[role]) || []
