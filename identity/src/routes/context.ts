import type { Logger, Sql } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import type { RateLimitPolicy } from '../plugins/rate-limit.ts'
import type { Deprecation } from '../services/docs/deprecations.ts'

/** What the catalog, changelog, discovery and MCP routes work with. */
export interface PlatformContext {
  sql: Sql
  log: Logger
  /** GUARD_IDENTITY_URL; without it, links are built from the request's own address. */
  publicUrl: string | undefined
  rateLimit: RateLimitPolicy
  deprecations: () => Deprecation[]
  /** Origins, besides the public URL's and loopback ones, that browsers may call the MCP server from. */
  allowedOrigins: string[]
}

export const baseUrl = (ctx: PlatformContext, request: FastifyRequest): string =>
  ctx.publicUrl ?? `${request.protocol}://${request.host}`
