import type { FastifyInstance, FastifyReply } from 'fastify'
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
export function registerRateLimit(
  app: FastifyInstance,
  policy: RateLimitPolicy = PUBLIC_POLICY,
  now: () => number = Date.now,
): void {
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

  app.addHook('onRequest', async (request, reply) => {
    const mode = request.routeOptions.config.rateLimit
    if (!mode) return
    const at = now()
    const window = current(request.ip, at)
    const resetSeconds = Math.max(1, Math.ceil((window.startedAt + windowMs - at) / 1000))
    if (mode === 'report') {
      setHeaders(reply, Math.max(0, policy.limit - window.count), resetSeconds)
      return
    }
    window.count += 1
    const remaining = Math.max(0, policy.limit - window.count)
    setHeaders(reply, remaining, resetSeconds)
    if (window.count > policy.limit) {
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
    }
  })
}
