/**
 * Membership roles (set at identity) to the collector's `<resource>:<action>` permissions. Each
 * role holds everything of the one below it:
 *
 * | role   | may                                                                         |
 * | ------ | --------------------------------------------------------------------------- |
 * | viewer | read everything of the organization                                         |
 * | member | also write monitors (domains, services, devices) and work incidents           |
 * | admin  | also manage API keys, status pages, integrations and notification channels   |
 * | owner  | also members and the organization itself (every permission)                  |
 *
 * Routes name the permission they need; unknown roles get nothing, so a role added at identity
 * grants access only once mapped here.
 */
export const MONITOR_RESOURCES = ['domains', 'services', 'devices', 'incidents'] as const
export const ADMIN_RESOURCES = ['api-keys', 'status-pages', 'integrations', 'notifications'] as const

const writes = (resources: readonly string[]) => resources.map((resource) => `${resource}:write`)

const viewer = ['*:read']
const member = [...viewer, ...writes(MONITOR_RESOURCES)]
const admin = [...member, ...writes(ADMIN_RESOURCES)]

const ROLE_PERMISSIONS: Record<string, string[]> = {
  owner: ['*:*'],
  admin,
  member,
  viewer,
}

export const permissionsOfRole = (role: string | undefined): string[] => (role && ROLE_PERMISSIONS[role]) || []
