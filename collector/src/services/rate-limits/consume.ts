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

interface LocalCount {
  /** The window's count as stored when first read here, plus every request counted since. */
  count: number
  /** Requests counted here and not yet written back. */
  unwritten: number
}

/** Counts of a PGlite store, which one process owns (its data directory is locked), so memory is exact. */
interface LocalCounter {
  counts: Map<string, Promise<LocalCount>>
  timer: NodeJS.Timeout | undefined
}

const localCounters = new WeakMap<Sql, LocalCounter>()
/** How long counts stay in memory only; a crash forgets at most this much, as the unlogged table may anyway. */
const WRITE_BACK_MS = 1000

const rowKey = (rateClass: RateClass, windowStart: number, key: string) =>
  `${rateClass}\u0000${windowStart}\u0000${key}`

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
    const rowOf = (key: string, waiting: Waiting) => rowKey(waiting.rateClass, waiting.windowStart, key)
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

/** Writes the counts taken in memory back to the table, so a restart carries on from them. */
export async function writeBackRateLimits(sql: Sql): Promise<void> {
  const local = localCounters.get(sql)
  if (!local) return
  if (local.timer) clearTimeout(local.timer)
  local.timer = undefined
  const now = Math.floor(Date.now() / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS
  const rows: Array<{ key: string; rateClass: string; windowStart: number; n: number }> = []
  for (const [id, pending] of local.counts) {
    const entry = await pending
    const [rateClass = '', windowStart = '0', key = ''] = id.split('\u0000')
    if (entry.unwritten > 0) rows.push({ key, rateClass, windowStart: Number(windowStart), n: entry.unwritten })
    entry.unwritten = 0
    if (Number(windowStart) < now) local.counts.delete(id)
  }
  if (rows.length === 0) return
  await sql.query(
    `INSERT INTO monitoring.rate_limits AS r (principal, class, window_start, count)
     SELECT key, cls, to_timestamp(w), n FROM unnest($1::text[], $2::text[], $3::float8[], $4::int[]) AS u(key, cls, w, n)
     ON CONFLICT (principal, class, window_start) DO UPDATE SET count = r.count + excluded.count`,
    [
      rows.map((row) => row.key),
      rows.map((row) => row.rateClass),
      rows.map((row) => row.windowStart),
      rows.map((row) => row.n),
    ],
  )
  await sql.query('DELETE FROM monitoring.rate_limits WHERE window_start < to_timestamp($1)', [now])
}

/** The embedded store's path: a count per window read once, then kept and written back every second. */
async function countLocally(sql: Sql, keys: string[], rateClass: RateClass, windowStart: number): Promise<number[]> {
  let local = localCounters.get(sql)
  if (!local) {
    local = { counts: new Map(), timer: undefined }
    localCounters.set(sql, local)
  }
  const entries = await Promise.all(
    keys.map((key) => {
      const id = rowKey(rateClass, windowStart, key)
      let entry = local.counts.get(id)
      if (!entry) {
        entry = sql
          .query<{ count: number }>(
            'SELECT count FROM monitoring.rate_limits WHERE principal = $1 AND class = $2 AND window_start = to_timestamp($3)',
            [key, rateClass, windowStart],
          )
          .then(({ rows }) => ({ count: rows[0]?.count ?? 0, unwritten: 0 }))
        entry.catch(() => local.counts.delete(id))
        local.counts.set(id, entry)
      }
      return entry
    }),
  )
  const counts = entries.map((entry) => {
    entry.count++
    entry.unwritten++
    return entry.count
  })
  if (!local.timer) {
    local.timer = setTimeout(() => {
      writeBackRateLimits(sql).catch(() => {})
    }, WRITE_BACK_MS)
    local.timer.unref()
  }
  return counts
}

function countTogether(sql: Sql, keys: string[], rateClass: RateClass, windowStart: number): Promise<number[]> {
  let counter = counters.get(sql)
  if (!counter) {
    counter = { waiting: [], flushing: false }
    counters.set(sql, counter)
  }
  const shared = counter
  return new Promise<number[]>((resolve, reject) => {
    shared.waiting.push({ keys, rateClass, windowStart, resolve, reject })
    if (!shared.flushing) void flush(sql, shared)
  })
}

/**
 * Counts one request against each bucket's fixed one-hour window in PostgreSQL, so every
 * replica sees the same counts. One atomic upsert for all buckets (and for every request waiting
 * beside it): two replicas counting at once both land. A store only this process uses (embedded
 * PGlite) has no other replica to agree with, so there the counts are kept in memory and written
 * back every second. Rejected requests count too, which keeps a client hammering at the limit
 * limited. Returns the decisions in the order of `buckets`.
 */
export async function consumeRateLimits(
  sql: Sql,
  buckets: RateBucket[],
  rateClass: RateClass,
  now = Date.now(),
): Promise<RateDecision[]> {
  const windowStart = Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS
  const keys = buckets.map((bucket) => bucket.key)
  const counts =
    'singleProcess' in sql && sql.singleProcess === true
      ? await countLocally(sql, keys, rateClass, windowStart)
      : await countTogether(sql, keys, rateClass, windowStart)
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
