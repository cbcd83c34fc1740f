import type { Sql } from '@guard/shared'

/** `public` counts requests that carry no valid credentials, per client IP. */
export type RateClass = 'read' | 'write' | 'bulk' | 'public'

export interface RateDecision {
  limit: number
  remaining: number
  /** Unix time in seconds at which the window resets. */
  reset: number
  allowed: boolean
}

const WINDOW_SECONDS = 3600

/** One counter a request is charged to: a principal (`api_key:<id>`) or an organization (`org:<id>`). */
export interface RateBucket {
  key: string
  limit: number
}

interface Waiting {
  keys: string[]
  rateClass: RateClass
  windowStart: number
  resolve(counts: number[]): void
  reject(error: unknown): void
}

interface Counter {
  waiting: Waiting[]
  flushing: boolean
}

const counters = new WeakMap<Sql, Counter>()

/**
 * Counts everything that arrived while the previous statement ran in one upsert (group commit):
 * under load a statement counts many requests, not one, and each request still gets the exact count
 * it reached, in arrival order, before its decision.
 */
async function flush(sql: Sql, counter: Counter): Promise<void> {
  counter.flushing = true
  while (counter.waiting.length > 0) {
    const batch = counter.waiting.splice(0)
    const increments = new Map<string, { key: string; rateClass: RateClass; windowStart: number; n: number }>()
    const rowOf = (key: string, waiting: Waiting) => `${waiting.rateClass}\u0000${waiting.windowStart}\u0000${key}`
    for (const waiting of batch) {
      for (const key of waiting.keys) {
        const id = rowOf(key, waiting)
        const entry = increments.get(id) ?? {
          key,
          rateClass: waiting.rateClass,
          windowStart: waiting.windowStart,
          n: 0,
        }
        entry.n++
        increments.set(id, entry)
      }
    }
    const rows = [...increments.values()]
    try {
      const result = await sql.query<{ principal: string; class: RateClass; window: number; count: number }>(
        `INSERT INTO monitoring.rate_limits AS r (principal, class, window_start, count)
         SELECT key, cls, to_timestamp(w), n FROM unnest($1::text[], $2::text[], $3::float8[], $4::int[]) AS u(key, cls, w, n)
         ON CONFLICT (principal, class, window_start) DO UPDATE SET count = r.count + excluded.count
         RETURNING principal, class, extract(epoch FROM window_start)::float8 AS window, count`,
        [
          rows.map((row) => row.key),
          rows.map((row) => row.rateClass),
          rows.map((row) => row.windowStart),
          rows.map((row) => row.n),
        ],
      )
      // The count before this statement; each waiting request then takes the next one, in order.
      const reached = new Map<string, number>()
      for (const row of result.rows) {
        const id = `${row.class}\u0000${Number(row.window)}\u0000${row.principal}`
        reached.set(id, row.count - (increments.get(id)?.n ?? 0))
      }
      for (const waiting of batch) {
        waiting.resolve(
          waiting.keys.map((key) => {
            const id = rowOf(key, waiting)
            const count = (reached.get(id) ?? 0) + 1
            reached.set(id, count)
            return count
          }),
        )
      }
      // Old windows are dead weight; an occasional request sweeps them instead of a timer per replica.
      if (
        result.rows.some(
          (row) => row.count === increments.get(`${row.class}\u0000${Number(row.window)}\u0000${row.principal}`)?.n,
        )
      ) {
        const oldest = Math.min(...rows.map((row) => row.windowStart))
        sql.query('DELETE FROM monitoring.rate_limits WHERE window_start < to_timestamp($1)', [oldest]).catch(() => {})
      }
    } catch (error) {
      for (const waiting of batch) waiting.reject(error)
    }
  }
  counter.flushing = false
}

/**
 * Counts one request against each bucket's fixed one-hour window in PostgreSQL, so every
 * replica sees the same counts. One atomic upsert for all buckets (and for every request waiting
 * beside it): two replicas counting at once both land. Rejected requests count too, which keeps a
 * client hammering at the limit limited. Returns the decisions in the order of `buckets`.
 */
export async function consumeRateLimits(
  sql: Sql,
  buckets: RateBucket[],
  rateClass: RateClass,
  now = Date.now(),
): Promise<RateDecision[]> {
  const windowStart = Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS
  let counter = counters.get(sql)
  if (!counter) {
    counter = { waiting: [], flushing: false }
    counters.set(sql, counter)
  }
  const counts = await new Promise<number[]>((resolve, reject) => {
    counter.waiting.push({ keys: buckets.map((bucket) => bucket.key), rateClass, windowStart, resolve, reject })
    if (!counter.flushing) void flush(sql, counter)
  })
  return buckets.map(({ limit }, index) => {
    const count = counts[index] ?? 1
    return {
      limit,
      remaining: Math.max(0, limit - count),
      reset: windowStart + WINDOW_SECONDS,
      allowed: count <= limit,
    }
  })
}

/** One bucket: a principal's or a client IP's count. */
export async function consumeRateLimit(
  sql: Sql,
  principal: string,
  rateClass: RateClass,
  limit: number,
  now = Date.now(),
): Promise<RateDecision> {
  const [decision] = await consumeRateLimits(sql, [{ key: principal, limit }], rateClass, now)
  return decision!
}
