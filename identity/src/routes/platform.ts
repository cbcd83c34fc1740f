import type { GuardFastify, Logger, Sql } from '@guard/shared'
import { PUBLIC_POLICY, type RateLimitPolicy } from '../plugins/rate-limit.ts'
import type { Deprecation } from '../services/docs/deprecations.ts'
import { apiIndexRoutes } from './api-index.ts'
import { changelogRoutes } from './changelog.ts'
import { discoveryRoutes } from './discovery.ts'
import { mcpRoutes } from './mcp.ts'
import { plansRoutes } from './plans.ts'

/** How the public catalog, changelog, discovery and MCP surface is configured. */
export interface PlatformOptions {
  sql: Sql
  publicUrl?: string | undefined
  /** Peers whose X-Forwarded-For is believed (fastify trustProxy: addresses or CIDRs). */
  trustedProxies?: string[] | undefined
  allowedOrigins?: string[] | undefined
  rateLimit?: RateLimitPolicy | undefined
}

/** The options startIdentity derives from the environment. */
export const platformOptionsFromEnv = (
  sql: Sql,
  env: {
    GUARD_IDENTITY_URL?: string | undefined
    GUARD_TRUSTED_PROXIES: string[]
    GUARD_MCP_ALLOWED_ORIGINS: string[]
  },
): PlatformOptions => ({
  sql,
  publicUrl: env.GUARD_IDENTITY_URL,
  trustedProxies: env.GUARD_TRUSTED_PROXIES,
  allowedOrigins: env.GUARD_MCP_ALLOWED_ORIGINS,
})

export function platformRoutes(
  app: GuardFastify,
  options: PlatformOptions,
  deps: { log: Logger; deprecations: () => Deprecation[] },
): void {
  const ctx = {
    sql: options.sql,
    log: deps.log,
    publicUrl: options.publicUrl,
    rateLimit: options.rateLimit ?? PUBLIC_POLICY,
    deprecations: deps.deprecations,
    allowedOrigins: options.allowedOrigins ?? [],
  }
  apiIndexRoutes(app, ctx)
  plansRoutes(app, ctx)
  changelogRoutes(app, ctx)
  discoveryRoutes(app, ctx)
  mcpRoutes(app, ctx)
}
