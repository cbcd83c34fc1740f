import { API_KEYS_SCOPE, type DataScope } from '@guard/shared'
import { RESOURCES } from '../access/resources.ts'

/**
 * Membership roles (set at identity) to the collector's `<resource>:<action>` permissions. Each
 * role holds everything of the one below it:
 *
 * | role   | may                                                                         |
 * | ------ | --------------------------------------------------------------------------- |
 * | viewer | read everything of the organization; keep their own assistant conversations  |
 * | member | also write monitors (domains, services, synthetics, devices), groups, incidents |
 * | admin  | also manage API keys, status pages, integrations, notification channels, and apply guard.yaml |
 * | owner  | also members and the organization itself (every permission)                  |
 *
 * Routes name the permission they need; unknown roles get nothing, so a role added at identity
 * grants access only once mapped here.
 */
export const MONITOR_RESOURCES = ['domains', 'services', 'synthetics', 'devices', 'groups', 'incidents'] as const
export const ADMIN_RESOURCES = ['api-keys', 'status-pages', 'integrations', 'notifications', 'config'] as const
/** A user's own assistant conversations: no role withholds them, but a token's scopes can. */
export const CHAT_WRITE = 'chat:write' as const

const writes = (resources: readonly string[]) => resources.map((resource) => `${resource}:write`)

const viewer = ['*:read', CHAT_WRITE]
const member = [...viewer, ...writes(MONITOR_RESOURCES)]
const admin = [...member, ...writes(ADMIN_RESOURCES)]

const ROLE_PERMISSIONS: Record<string, string[]> = {
  owner: ['*:*'],
  admin,
  member,
  viewer,
}

export const permissionsOfRole = (role: string | undefined): string[] => (role && ROLE_PERMISSIONS[role]) || []

/**
 * What each scope of a user's token may do, before the member's role narrows it: `read` every
 * read, `write` every write except API keys, which only the first-party `api-keys:write` reaches
 * (a key outlives the token, so writing monitors must not imply minting keys). Other scopes
 * (`openid`, `organizations`, …) say who the user is and grant nothing here.
 */
const SCOPE_PERMISSIONS: Record<DataScope | typeof API_KEYS_SCOPE, string[]> = {
  read: ['*:read'],
  write: [...writes(RESOURCES), CHAT_WRITE],
  [API_KEYS_SCOPE]: ['api-keys:write'],
}

const isGrantingScope = (scope: string): scope is keyof typeof SCOPE_PERMISSIONS =>
  Object.hasOwn(SCOPE_PERMISSIONS, scope)

export const permissionsOfScopes = (scopes: readonly string[]): string[] =>
  scopes.flatMap((scope) => (isGrantingScope(scope) ? SCOPE_PERMISSIONS[scope] : []))

const meet = (a: string, b: string) => (a === '*' ? b : b === '*' || a === b ? a : undefined)
const parts = (permission: string) => (permission === '*' ? ['*', '*'] : permission.split(':'))

/** The permissions held under both `a` and `b` (each may use `*` for the resource, the action or both). */
export function intersectPermissions(a: readonly string[], b: readonly string[]): string[] {
  const both = a.flatMap((left) =>
    b.flatMap((right) => {
      const [leftResource = '', leftAction = ''] = parts(left)
      const [rightResource = '', rightAction = ''] = parts(right)
      const resource = meet(leftResource, rightResource)
      const action = meet(leftAction, rightAction)
      return resource && action ? [`${resource}:${action}`] : []
    }),
  )
  return [...new Set(both)]
}
