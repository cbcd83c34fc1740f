import {
  type AccessTokenClaims,
  createAccessTokenVerifier,
  DATA_SCOPES,
  type DataScope,
  GuardError,
  MONITORING_API_AUDIENCE,
} from '@guard/shared'
import type { Caller, CollectorContext } from '../context.ts'
import { collectorPublicUrl } from '../env.ts'
import { looksLikeApiKey } from '../services/api-keys/secret.ts'
import { createCachedApiKeyVerifier } from '../services/api-keys/verify-cached.ts'
import type { Member } from '../services/assistant/audience.ts'
import { callerFromToken } from '../services/auth/caller-from-token.ts'

/** Paths of the MCP endpoint; each is an OAuth protected resource of its own (RFC 9728). */
export const MCP_PATHS = ['/mcp', '/api/mcp'] as const

/** Scopes an assistant's token may carry for the MCP resources. */
export const MCP_SCOPES = DATA_SCOPES
export type McpScope = DataScope

/** Who is calling the MCP endpoint. */
export type McpAuth =
  | { kind: 'anonymous' }
  | {
      kind: 'member'
      member: Member
      /** Counted against for rate limits: the caller in its first organization. */
      principal: Caller
      /** The MCP scopes a user token holds; undefined for API keys. */
      scopes: McpScope[] | undefined
    }

/** A URL as compared for audiences: lower-case scheme and host, no default port, no trailing slash. */
export function normalizeResource(value: string): string | undefined {
  try {
    const url = new URL(value)
    if (url.search || url.hash) return undefined
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`
  } catch {
    return undefined
  }
}

export const mcpResources = (ctx: CollectorContext) => MCP_PATHS.map((path) => `${collectorPublicUrl(ctx.env)}${path}`)

/**
 * Resolves `Authorization: Bearer` on the MCP endpoint: none is anonymous; an API key or a
 * monitoring API token (audience urn:guard:monitoring-api) as on the REST API; or an assistant's
 * token whose audience is one of the MCP resource URLs (RFC 8707). Every user token is limited to
 * its `read` and `write` scopes, as on the REST API. Anything else throws UNAUTHORIZED.
 */
export function createMcpAuthenticator(ctx: CollectorContext) {
  const issuer = ctx.env.GUARD_IDENTITY_URL
  const jwksUrl = ctx.env.GUARD_IDENTITY_JWKS_URL
  // Read per token, not once: the public URL is known only once a test collector listens.
  const resources = () => new Set(mcpResources(ctx).map((resource) => normalizeResource(resource)))
  const verify = issuer
    ? createAccessTokenVerifier({
        issuer,
        ...(jwksUrl ? { jwksUrl } : {}),
        audience: (audiences) =>
          audiences.some(
            (audience) => audience === MONITORING_API_AUDIENCE || resources().has(normalizeResource(audience)),
          ),
      })
    : undefined
  const verifyKey = createCachedApiKeyVerifier(ctx)

  return async (authorization: string | undefined): Promise<McpAuth> => {
    if (authorization === undefined) return { kind: 'anonymous' }
    const token = authorization.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
    if (!token) throw new GuardError('UNAUTHORIZED', 'Invalid or missing authentication token')
    if (looksLikeApiKey(token) || !verify) {
      const caller = await verifyKey(token)
      return {
        kind: 'member',
        member: { organizationIds: [caller.organizationId], callerFor: () => caller },
        principal: caller,
        scopes: undefined,
      }
    }
    const claims = await verify(token)
    // callerFromToken already limits the caller to the token's scopes, on top of the role.
    const callerFor = (organizationId: string) => callerFromToken(claims, organizationId)
    const principal = callerFromToken(claims, undefined)
    return {
      kind: 'member',
      member: { organizationIds: principal.organizationIds, callerFor },
      principal,
      scopes: mcpScopesOf(claims),
    }
  }
}

/** The MCP scopes a user token holds: a tool call needing another is answered insufficient_scope. */
function mcpScopesOf(claims: AccessTokenClaims): McpScope[] {
  const granted = claims.scope.split(' ')
  return MCP_SCOPES.filter((scope) => granted.includes(scope))
}
