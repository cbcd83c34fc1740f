export const SUPPORTED_SCOPES = ['openid', 'email', 'profile', 'organizations'] as const

export type Scope = (typeof SUPPORTED_SCOPES)[number]

/** What an authorization request without `scope` asks for (the spec's default). */
export const DEFAULT_SCOPES: Scope[] = ['openid', 'email', 'profile']

export const isScope = (value: string): value is Scope => (SUPPORTED_SCOPES as readonly string[]).includes(value)

/** Space-delimited scope string to a de-duplicated list, in request order. */
export function parseScope(value: string): string[] {
  return [...new Set(value.split(' ').filter(Boolean))]
}

export const formatScope = (scopes: readonly string[]) => scopes.join(' ')

export const isSubset = (wanted: readonly string[], held: readonly string[]) =>
  wanted.every((scope) => held.includes(scope))
