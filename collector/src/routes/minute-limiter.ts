/**
 * A fixed one-minute window per key, in this replica's memory: a runaway client (an agent, a ping
 * loop) is stopped before any database read or write. Behind N replicas a key may send up to N
 * times the limit; the answer carries what the X-RateLimit and Retry-After headers need.
 */
export function minuteLimiter(perMinute: number) {
  let window = 0
  let counts = new Map<string, number>()
  return (key: string, now = Date.now()) => {
    const current = Math.floor(now / 60_000)
    if (current !== window) {
      window = current
      counts = new Map()
    }
    const count = (counts.get(key) ?? 0) + 1
    counts.set(key, count)
    const reset = (current + 1) * 60
    return {
      allowed: count <= perMinute,
      limit: perMinute,
      remaining: Math.max(0, perMinute - count),
      reset,
      retryAfter: reset - Math.floor(now / 1000),
    }
  }
}
