import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CollectorContext } from '../context.ts'
import { invalidateReads } from '../services/read-cache/invalidate.ts'
import { callerOf } from './authenticate.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The response may be served from the read cache until a write to the caller's organizations. */
    readCache?: boolean
  }
  interface FastifyRequest {
    readCacheMiss: { key: string; generations: number[] } | undefined
  }
}

const READ_METHODS = new Set(['GET', 'HEAD'])

/**
 * The key carries who asks and what they may see: two callers share an entry only when they are the
 * same principal with the same organizations, so permissions and scoping already applied on the
 * miss carry over to the hit.
 */
function keyOf(request: FastifyRequest): { key: string; organizationIds: string[] } {
  const caller = callerOf(request)
  const organizationIds = [...caller.organizationIds].sort()
  return {
    key: `${caller.principal.kind}:${caller.principal.id}|${caller.organizationId}|${organizationIds.join(',')}|${request.url}`,
    organizationIds,
  }
}

/** Runs after authentication, rate limiting and authorization: a hit skips only the handler. */
export function serveCachedReads(ctx: CollectorContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' || !request.routeOptions.config.readCache) return
    const { key, organizationIds } = keyOf(request)
    const hit = ctx.reads.get(key, organizationIds)
    if (hit) {
      reply.header('x-cache', 'hit').type(hit.contentType).status(hit.statusCode)
      return reply.send(hit.payload)
    }
    request.readCacheMiss = { key, generations: ctx.reads.generations(organizationIds) }
    reply.header('x-cache', 'miss')
  }
}

/**
 * Keeps a successful cacheable response, stamped with the generations taken before it was read.
 * Any other request that got past authentication may have written (even one that failed half-way),
 * so it invalidates its caller's organizations before its response leaves: a client that reads
 * right after its write never sees the entry from before it.
 */
export function storeCachedReads(ctx: CollectorContext) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const miss = request.readCacheMiss
    if (miss) {
      if (reply.statusCode === 200 && typeof payload === 'string') {
        ctx.reads.set(miss.key, miss.generations, {
          statusCode: 200,
          contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
          payload,
        })
      }
    } else if (!READ_METHODS.has(request.method) && request.caller) {
      await invalidateReads({ ctx, organizationIds: request.caller.organizationIds })
    }
    return payload
  }
}
