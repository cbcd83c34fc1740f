import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { problem, sendProblem } from './problem.ts'

export interface RateLimitPolicy {
  /** The policy's name in RateLimit and RateLimit-Policy. */
  name: string
  limit: number
  windowSeconds: number
}

export const PUBLIC_POLICY: RateLimitPolicy = { name: 'public', limit: 120, windowSeconds: 60 }

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `count`: the request spends quota and is refused past it; `report`: headers only (health). */
    rateLimit?: 'count' | 'report'
  }
}

interface Window {
  startedAt: number
  count: number
}

/** Beyond this many client addresses, expired windows are swept so memory stays bounded under a scan. */
const MAX_TRACKED = 50_000

/**
 * A fixed-window limiter per client IP, in memory: identity replicas each keep their own counts,
 * which bounds a client at `limit` per replica. request.ip is the socket address unless the peer
 * is a trusted proxy (fastify's trustProxy), so X-Forwarded-For cannot be forged from outside.
 */
export function fixedWindowLimiter(policy: RateLimitPolicy, now: () => number = Date.now) {
  const windows = new Map<string, Window>()
  const windowMs = policy.windowSeconds * 1000
  const policyHeader = `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`

  const current = (ip: string, at: number): Window => {
    const existing = windows.get(ip)
    if (existing && at - existing.startedAt < windowMs) return existing
    if (windows.size >= MAX_TRACKED) sweep(at)
    const fresh = { startedAt: at, count: 0 }
    windows.delete(ip)
    windows.set(ip, fresh)
    return fresh
  }

  const sweep = (at: number) => {
    for (const [ip, window] of windows) {
      if (at - window.startedAt >= windowMs || windows.size >= MAX_TRACKED) windows.delete(ip)
      else break // Insertion order is window start order: the rest are younger.
    }
  }

  const setHeaders = (reply: FastifyReply, remaining: number, resetSeconds: number) => {
    reply.header('RateLimit-Policy', policyHeader)
    reply.header('RateLimit', `"${policy.name}";r=${remaining};t=${resetSeconds}`)
  }

  const resetOf = (window: Window, at: number) => Math.max(1, Math.ceil((window.startedAt + windowMs - at) / 1000))

  return {
    /** Headers only: the quota left, without spending it. */
    report(request: FastifyRequest, reply: FastifyReply): void {
      const at = now()
      const window = current(request.ip, at)
      setHeaders(reply, Math.max(0, policy.limit - window.count), resetOf(window, at))
    },
    /** Spends one request of the quota; past it, answers 429 and returns the reply. */
    count(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
      const at = now()
      const window = current(request.ip, at)
      const resetSeconds = resetOf(window, at)
      window.count += 1
      setHeaders(reply, Math.max(0, policy.limit - window.count), resetSeconds)
      if (window.count <= policy.limit) return undefined
      reply.header('Retry-After', String(resetSeconds))
      return sendProblem(
        reply,
        problem(
          'RATE_LIMIT_EXCEEDED',
          429,
          `The ${policy.name} policy allows ${policy.limit} requests per ${policy.windowSeconds} seconds per client`,
          `Retry after ${resetSeconds} seconds; the RateLimit header shows the remaining quota`,
        ),
      )
    },
  }
}

/** Applies `policy` to the routes whose config names a rateLimit mode. */
export function registerRateLimit(
  app: FastifyInstance,
  policy: RateLimitPolicy = PUBLIC_POLICY,
  now: () => number = Date.now,
): void {
  const limiter = fixedWindowLimiter(policy, now)
  app.addHook('onRequest', async (request, reply) => {
    const mode = request.routeOptions.config.rateLimit
    if (mode === 'report') limiter.report(request, reply)
    else if (mode === 'count') return limiter.count(request, reply)
  })
}
