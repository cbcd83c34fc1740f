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

/**
 * Counts one request against each bucket's fixed one-hour window in PostgreSQL, so every
 * replica sees the same counts. One atomic upsert for all buckets: two replicas counting at once
 * both land. Rejected requests count too, which keeps a client hammering at the limit limited.
 * Returns the decisions in the order of `buckets`.
 */
export async function consumeRateLimits(
  sql: Sql,
  buckets: RateBucket[],
  rateClass: RateClass,
  now = Date.now(),
): Promise<RateDecision[]> {
  const windowStart = Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS
  const { rows } = await sql.query<{ principal: string; count: number }>(
    `INSERT INTO monitoring.rate_limits AS r (principal, class, window_start, count)
     SELECT key, $2, to_timestamp($3), 1 FROM unnest($1::text[]) AS key
     ON CONFLICT (principal, class, window_start) DO UPDATE SET count = r.count + 1
     RETURNING principal, count`,
    [buckets.map((bucket) => bucket.key), rateClass, windowStart],
  )
  const counts = new Map(rows.map((row) => [row.principal, row.count]))
  // Old windows are dead weight; an occasional request sweeps them instead of a timer per replica.
  if (rows.some((row) => row.count === 1)) {
    sql.query('DELETE FROM monitoring.rate_limits WHERE window_start < to_timestamp($1)', [windowStart]).catch(() => {})
  }
  return buckets.map(({ key, limit }) => {
    const count = counts.get(key) ?? 1
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
