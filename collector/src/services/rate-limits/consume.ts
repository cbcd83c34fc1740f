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

/**
 * Counts one request against the principal's fixed one-hour window in PostgreSQL, so every
 * replica sees the same count. The upsert is one atomic statement: two replicas counting at once
 * both land. Rejected requests count too, which keeps a client hammering at the limit limited.
 */
export async function consumeRateLimit(
  sql: Sql,
  principal: string,
  rateClass: RateClass,
  limit: number,
  now = Date.now(),
): Promise<RateDecision> {
  const windowStart = Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS
  const { rows } = await sql.query<{ count: number }>(
    `INSERT INTO monitoring.rate_limits AS r (principal, class, window_start, count)
     VALUES ($1, $2, to_timestamp($3), 1)
     ON CONFLICT (principal, class, window_start) DO UPDATE SET count = r.count + 1
     RETURNING count`,
    [principal, rateClass, windowStart],
  )
  const count = rows[0]!.count
  // Old windows are dead weight; an occasional request sweeps them instead of a timer per replica.
  if (count === 1) {
    sql.query('DELETE FROM monitoring.rate_limits WHERE window_start < to_timestamp($1)', [windowStart]).catch(() => {})
  }
  return { limit, remaining: Math.max(0, limit - count), reset: windowStart + WINDOW_SECONDS, allowed: count <= limit }
}
