import { API_KEYS_SCOPE, DATA_SCOPES } from '@guard/shared'

/** The spec's OpenID Connect scopes: all that `/.well-known/openid-configuration` may list. */
export const OPENID_SCOPES = ['openid', 'email', 'profile', 'organizations'] as const

/**
 * The scopes any client may ask for: the OpenID ones, and `read` / `write` over the monitoring
 * data (REST and MCP), which the RFC 8414 document publishes for assistants.
 */
export const SUPPORTED_SCOPES = [...OPENID_SCOPES, ...DATA_SCOPES] as const

/** Scopes only first-party clients are granted; neither published nor offered to registrations. */
export const FIRST_PARTY_SCOPES: readonly string[] = [API_KEYS_SCOPE]

/** Scopes that reach the monitoring data: the collector scopes such a token with its `organizations` claim. */
export const ORGANIZATION_SCOPES: readonly string[] = [...DATA_SCOPES, API_KEYS_SCOPE]

/**
 * Opens identity's admin API to an admin user. Not published and not granted by default: a
 * client gets it only when registered with it, and it counts only for users whose role is admin.
 */
export const ADMIN_SCOPE = 'admin'

export type Scope = (typeof SUPPORTED_SCOPES)[number] | typeof ADMIN_SCOPE | typeof API_KEYS_SCOPE

/** What an authorization request without `scope` asks for (the spec's default). */
export const DEFAULT_SCOPES: Scope[] = ['openid', 'email', 'profile']

export const isScope = (value: string): value is Scope =>
  value === ADMIN_SCOPE || FIRST_PARTY_SCOPES.includes(value) || (SUPPORTED_SCOPES as readonly string[]).includes(value)

/** Space-delimited scope string to a de-duplicated list, in request order. */
export function parseScope(value: string): string[] {
  return [...new Set(value.split(' ').filter(Boolean))]
}

export const formatScope = (scopes: readonly string[]) => scopes.join(' ')

export const isSubset = (wanted: readonly string[], held: readonly string[]) =>
  wanted.every((scope) => held.includes(scope))
