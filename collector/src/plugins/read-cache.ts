import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CollectorContext } from '../context.ts'
import type { CachedResponse, ReadCache } from '../services/read-cache/cache.ts'
import {
  ingestScope,
  invalidateReads,
  isIngestScope,
  monitorScope,
  stateScope,
} from '../services/read-cache/invalidate.ts'
import { callerOf } from './authenticate.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The response may be served from the read cache until a write to the caller's organizations, or
     * newly ingested results: of any monitor of theirs (`true`), or only of the monitor the route's
     * `:id` names (`'monitor'`), so one monitor's results leave every other monitor's pages cached.
     * `'negotiated'`: as `true`, for a route whose answer also depends on `Accept` (JSON or CSV).
     * `'states'`: until a write, or ingested results that change a monitor's state (what groups derive
     * theirs from); results that leave every state as it was leave the answer cached.
     */
    readCache?: boolean | 'monitor' | 'negotiated' | 'states'
  }
  interface FastifyRequest {
    readCacheMiss: { key: string; generations: number[] } | undefined
  }
}

const READ_METHODS = new Set(['GET', 'HEAD'])

interface InFlight {
  generations: number[]
  done: Promise<CachedResponse | undefined>
  settle: (response: CachedResponse | undefined) => void
}

/**
 * Misses being computed, per cache: requests that miss the same key at the same generations wait
 * for the first one's answer instead of asking the stores again, so an invalidation under load
 * costs one computation, not one per waiting connection.
 */
const inFlightByCache = new WeakMap<ReadCache, Map<string, InFlight>>()
const inFlightOf = (cache: ReadCache) => {
  let map = inFlightByCache.get(cache)
  if (!map) {
    map = new Map()
    inFlightByCache.set(cache, map)
  }
  return map
}
const sameGenerations = (a: number[], b: number[]) => a.length === b.length && a.every((value, i) => value === b[i])

/**
 * The key carries who asks and what they may see: two callers share an entry only when they are the
 * same principal with the same organizations, so permissions and scoping already applied on the
 * miss carry over to the hit.
 */
function keyOf(request: FastifyRequest): { key: string; scopes: string[] } {
  const caller = callerOf(request)
  const organizationIds = [...caller.organizationIds].sort()
  const how = request.routeOptions.config.readCache
  const monitorId = how === 'monitor' ? (request.params as { id?: string }).id : undefined
  const accept = how === 'negotiated' ? `|${request.headers.accept ?? ''}` : ''
  const ingested = monitorId
    ? [monitorScope(monitorId)]
    : organizationIds.map(how === 'states' ? stateScope : ingestScope)
  return {
    key: `${caller.principal.kind}:${caller.principal.id}|${caller.organizationId}|${organizationIds.join(',')}|${request.url}${accept}`,
    scopes: [...organizationIds, ...ingested],
  }
}

function replay(reply: FastifyReply, how: string, cached: CachedResponse) {
  reply.header('x-cache', how).type(cached.contentType).status(cached.statusCode)
  if (cached.contentDisposition) reply.header('content-disposition', cached.contentDisposition)
  return reply.send(cached.payload)
}

/** Runs after authentication, rate limiting and authorization: a hit skips only the handler. */
export function serveCachedReads(ctx: CollectorContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' || !request.routeOptions.config.readCache) return
    const { key, scopes } = keyOf(request)
    const hit = ctx.reads.get(key, scopes)
    if (hit) return replay(reply, 'hit', hit)
    const generations = ctx.reads.generations(scopes)
    const inFlight = inFlightOf(ctx.reads)
    const running = inFlight.get(key)
    if (running && sameGenerations(running.generations, generations)) {
      // Made stale by ingested results only: the answer from before serves while one request recomputes.
      const stale = ctx.reads.stale(key, scopes, isIngestScope)
      if (stale) return replay(reply, 'stale', stale)
      const shared = await running.done
      if (shared) return replay(reply, 'shared', shared)
    }
    request.readCacheMiss = { key, generations }
    if (!running || !sameGenerations(running.generations, generations)) {
      let settle: InFlight['settle'] = () => {}
      const done = new Promise<CachedResponse | undefined>((resolve) => {
        settle = resolve
      })
      inFlight.set(key, { generations, done, settle })
    }
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
      const response =
        reply.statusCode === 200 && typeof payload === 'string'
          ? {
              statusCode: 200,
              contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
              payload,
              ...(reply.hasHeader('content-disposition')
                ? { contentDisposition: String(reply.getHeader('content-disposition')) }
                : {}),
            }
          : undefined
      if (response) ctx.reads.set(miss.key, miss.generations, response)
      settleMiss(ctx, request, response)
    } else if (!READ_METHODS.has(request.method) && request.caller) {
      await invalidateReads({ ctx, organizationIds: request.caller.organizationIds })
    }
    return payload
  }
}

/** Hands a miss's answer (or, when it had none to share, nothing) to the requests waiting on it. */
function settleMiss(ctx: CollectorContext, request: FastifyRequest, response: CachedResponse | undefined) {
  const miss = request.readCacheMiss
  if (!miss) return
  request.readCacheMiss = undefined
  const inFlight = inFlightOf(ctx.reads)
  const running = inFlight.get(miss.key)
  if (running && sameGenerations(running.generations, miss.generations)) {
    inFlight.delete(miss.key)
    running.settle(response)
  }
}

/** A miss that never reached onSend (the client went away) must not leave its waiters hanging. */
export function releaseAbandonedMisses(ctx: CollectorContext) {
  return async (request: FastifyRequest) => settleMiss(ctx, request, undefined)
}
