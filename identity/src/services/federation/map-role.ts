import type { MembershipRole } from '../organizations/add-member.ts'
import type { FederationProvider } from './provider.ts'

/** The membership role the upstream's claim maps to: the first of its values found in the map, else the default. */
export function mapFederatedRole(provider: FederationProvider, claims: Record<string, unknown>): MembershipRole {
  if (!provider.roleClaim) return provider.defaultRole
  const value = claims[provider.roleClaim]
  const values = Array.isArray(value) ? value : [value]
  for (const item of values) {
    if (typeof item !== 'string') continue
    const role = Object.hasOwn(provider.roleMap, item) ? provider.roleMap[item] : undefined
    if (role) return role
  }
  return provider.defaultRole
}
