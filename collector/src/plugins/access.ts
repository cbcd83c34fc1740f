import { GuardError } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Caller, CollectorContext } from '../context.ts'
import { hasPermission, type Permission } from '../services/access/permissions.ts'
import {
  consumeRateLimit,
  consumeRateLimits,
  type RateClass,
  type RateDecision,
} from '../services/rate-limits/consume.ts'
import { callerOf } from './authenticate.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the caller must hold; `user` routes accept only a signed-in user, never an API key,
     * and then only one whose role grants `permission` when given (README "Roles").
     */
    access?:
      | { permission: Permission }
      | { user: true; permission?: `${string}:${'read' | 'write'}` }
      | { anyOf: Permission[] }
    /** Counts against the bulk limit instead of the read or write one (README "Rate limits"). */
    bulk?: boolean
    /** Counts its own requests (the MCP endpoint: per caller when signed in, per IP when not). */
    selfLimited?: boolean
    /**
     * Device heartbeats (`POST /agent`): limited per device instead (README "Devices and the
     * agent"); only requests refused before a device is known count per IP.
     */
    perDevice?: boolean
    /** The web console's files: served like any web server's, without counting against a limit. */
    staticFile?: boolean
  }
}

function setHeaders(reply: FastifyReply, decision: RateDecision) {
  reply.header('X-RateLimit-Limit', decision.limit)
  reply.header('X-RateLimit-Remaining', decision.remaining)
  reply.header('X-RateLimit-Reset', decision.reset)
}

/**
 * Fails open: when PostgreSQL cannot count, the request goes on without the headers, so the health
 * check and the error answers still reach the client during a database outage.
 */
async function countPublic(ctx: CollectorContext, request: FastifyRequest): Promise<RateDecision | undefined> {
  try {
    return await consumeRateLimit(ctx.sql, `ip:${request.ip}`, 'public', ctx.env.GUARD_RATE_LIMIT_PUBLIC)
  } catch (error) {
    request.log.warn({ err: error }, 'could not count a public request')
    return undefined
  }
}

/**
 * Requests to routes without credentials (health, the OpenAPI document, unknown paths) count per
 * client IP in the `public` class. Health is never refused, so load balancers keep probing it.
 */
export function publicRateLimit(ctx: CollectorContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { access, perDevice, selfLimited, staticFile } = request.routeOptions.config
    if (access || perDevice || selfLimited || staticFile) return
    const decision = await countPublic(ctx, request)
    if (!decision) return
    setHeaders(reply, decision)
    if (!decision.allowed && request.routeOptions.url !== '/api/health') refuse(reply, decision, 'public')
  }
}

/**
 * A request refused before its caller was known (401) has not been counted yet: it counts per IP,
 * so every response carries the headers and guessing keys is limited like any public request.
 */
export function rateLimitHeadersOnEveryResponse(ctx: CollectorContext) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.hasHeader('X-RateLimit-Limit') || request.routeOptions.config.staticFile) return payload
    if (request.routeOptions.config.perDevice && request.device) return payload
    const decision = await countPublic(ctx, request)
    if (decision) setHeaders(reply, decision)
    return payload
  }
}

function refuse(
  reply: FastifyReply,
  decision: RateDecision,
  rateClass: RateClass,
  scope: 'caller' | 'organization' = 'caller',
): never {
  const retryAfter = Math.max(1, decision.reset - Math.floor(Date.now() / 1000))
  reply.header('Retry-After', retryAfter)
  throw new GuardError(
    'RATE_LIMIT_EXCEEDED',
    `Rate limit of ${decision.limit} ${rateClass} requests per hour${scope === 'organization' ? ' for the organization' : ''} exceeded`,
    {
      retry_after: retryAfter,
    },
  )
}

/**
 * Counts one request of `rateClass` against the caller's and its organization's hourly limits,
 * sets the X-RateLimit-* headers and refuses with 429 past either. The REST routes and the MCP
 * endpoint both charge through here.
 */
export async function chargeCaller(
  ctx: CollectorContext,
  reply: FastifyReply,
  caller: Caller,
  rateClass: Exclude<RateClass, 'public'>,
): Promise<void> {
  const limits = {
    read: ctx.env.GUARD_RATE_LIMIT_READ,
    write: ctx.env.GUARD_RATE_LIMIT_WRITE,
    bulk: ctx.env.GUARD_RATE_LIMIT_BULK,
  }
  const organizationLimits = {
    read: ctx.env.GUARD_RATE_LIMIT_ORG_READ ?? 5 * limits.read,
    write: ctx.env.GUARD_RATE_LIMIT_ORG_WRITE ?? 5 * limits.write,
    bulk: ctx.env.GUARD_RATE_LIMIT_ORG_BULK ?? 5 * limits.bulk,
  }
  const decisions = await consumeRateLimits(
    ctx.sql,
    [
      { key: `${caller.principal.kind}:${caller.principal.id}`, limit: limits[rateClass] },
      { key: `org:${caller.organizationId}`, limit: organizationLimits[rateClass] },
    ],
    rateClass,
  )
  // The headers describe whichever limit the caller will meet first; a refusal names the one it met.
  const decision =
    decisions.find((candidate) => !candidate.allowed) ??
    decisions.reduce((tightest, candidate) => (candidate.remaining < tightest.remaining ? candidate : tightest))
  setHeaders(reply, decision)
  if (!decision.allowed) refuse(reply, decision, rateClass, decision === decisions[1] ? 'organization' : 'caller')
}

/** Counts a request without credentials per client IP (`public` class); 429 past the limit. */
export async function chargeAnonymous(ctx: CollectorContext, request: FastifyRequest, reply: FastifyReply) {
  const decision = await countPublic(ctx, request)
  if (!decision) return
  setHeaders(reply, decision)
  if (!decision.allowed) refuse(reply, decision, 'public')
}

/**
 * Counts the request against the caller's hourly limit and sets the X-RateLimit-* headers, which
 * therefore travel on every authenticated response, errors included.
 */
export function rateLimit(ctx: CollectorContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const rateClass: Exclude<RateClass, 'public'> = request.routeOptions.config.bulk
      ? 'bulk'
      : request.method === 'GET' || request.method === 'HEAD'
        ? 'read'
        : 'write'
    await chargeCaller(ctx, reply, callerOf(request), rateClass)
  }
}

/** Refuses with 403 a caller who lacks the route's permission. */
export async function authorize(request: FastifyRequest): Promise<void> {
  const caller = callerOf(request)
  const access = request.routeOptions.config.access
  if (!access) throw new GuardError('INTERNAL_ERROR', `route ${request.routeOptions.url} declares no access rule`)
  if ('user' in access) {
    if (caller.principal.kind !== 'user') {
      throw new GuardError('FORBIDDEN', 'API keys are managed with a user token, not with an API key')
    }
    if (access.permission && !hasPermission(caller.permissions, access.permission)) {
      throw new GuardError('FORBIDDEN', `Missing permission ${access.permission} (your role in this organization)`)
    }
    return
  }
  if ('anyOf' in access) {
    if (!access.anyOf.some((permission) => hasPermission(caller.permissions, permission))) {
      throw new GuardError('FORBIDDEN', `Missing permission ${access.anyOf.join(' or ')}`)
    }
    return
  }
  if (!hasPermission(caller.permissions, access.permission)) {
    throw new GuardError('FORBIDDEN', `Missing permission ${access.permission}`)
  }
}
