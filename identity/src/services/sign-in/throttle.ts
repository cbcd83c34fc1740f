import type { Sql } from '@guard/shared'

/**
 * Failed sign-ins are counted per account (the email typed, whether or not it exists, so a lock
 * reveals nothing) and per client IP. Past `free` failures each further one is answered only
 * after a growing delay (the base doubling, capped); at `lockAfter` the key is locked for
 * `lockSeconds`, during which every attempt, right password included, gets the same refusal.
 * Failures older than the lock time are forgotten.
 */
export interface ThrottlePolicy {
  baseDelayMs: number
  maxDelayMs: number
  lockSeconds: number
  account: { free: number; lockAfter: number }
  /** Looser: several people may share an address (an office, a NAT). */
  ip: { free: number; lockAfter: number }
}

export const defaultThrottlePolicy = (input: { delayMs: number; lockSeconds: number }): ThrottlePolicy => ({
  baseDelayMs: input.delayMs,
  maxDelayMs: input.delayMs * 8,
  lockSeconds: input.lockSeconds,
  account: { free: 5, lockAfter: 10 },
  ip: { free: 10, lockAfter: 20 },
})

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`
export const ipKey = (ip: string) => `ip:${ip}`

/** Seconds until every key given is unlocked; 0 when none is locked. */
export async function lockedFor(sql: Sql, keys: string[]): Promise<number> {
  const { rows } = await sql.query<{ seconds: number | null }>(
    `SELECT ceil(extract(epoch FROM max(locked_until) - now()))::int AS seconds
       FROM identity.sign_in_throttle WHERE key = ANY($1) AND locked_until > now()`,
    [keys],
  )
  return Math.max(0, Number(rows[0]?.seconds ?? 0))
}

export interface ThrottledKey {
  key: string
  rule: { free: number; lockAfter: number }
}

/** An attempt counted as a failure in advance: the password check settles it. */
export interface Attempt {
  keys: Array<ThrottledKey & { count: number }>
}

export type Reservation = { reserved: true; attempt: Attempt } | { reserved: false; retryAfter: number }

/**
 * Counts one attempt on a key in one statement, unless the key is locked or already holds
 * `lockAfter` attempts (failed or still being checked): the row lock of the upsert orders
 * parallel attempts, so a burst gets no more password checks than a sequence would.
 */
async function reserveKey(sql: Sql, policy: ThrottlePolicy, { key, rule }: ThrottledKey): Promise<number | undefined> {
  const { rows } = await sql.query<{ failures: number }>(
    `INSERT INTO identity.sign_in_throttle AS t (key, failures, last_failure_at) VALUES ($1, 1, now())
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN t.last_failure_at < now() - make_interval(secs => $2) THEN 1 ELSE t.failures + 1 END,
       last_failure_at = now()
     WHERE (t.locked_until IS NULL OR t.locked_until <= now())
       AND (t.failures < $3 OR t.last_failure_at < now() - make_interval(secs => $2))
     RETURNING failures`,
    [key, policy.lockSeconds, rule.lockAfter],
  )
  return rows[0] ? Number(rows[0].failures) : undefined
}

/**
 * Reserves the attempt on every key before the password is checked, or refuses it (a key is
 * locked, or enough attempts on it are already counted or in flight) with the seconds to wait.
 */
export async function reserveAttempt(sql: Sql, policy: ThrottlePolicy, keys: ThrottledKey[]): Promise<Reservation> {
  const attempt: Attempt = { keys: [] }
  for (const throttled of keys) {
    const count = await reserveKey(sql, policy, throttled)
    if (count === undefined) {
      await releaseAttempt(sql, attempt)
      // Not locked yet: the attempts in flight are about to lock it.
      const wait = await lockedFor(sql, [throttled.key])
      return { reserved: false, retryAfter: wait > 0 ? wait : policy.lockSeconds }
    }
    attempt.keys.push({ ...throttled, count })
  }
  return { reserved: true, attempt }
}

export interface FailureOutcome {
  /** How long to hold the answer. */
  delayMs: number
  /** The keys this failure locked. */
  locked: string[]
}

/** The password was wrong: the reserved counts stand; the one that reaches `lockAfter` locks its key. */
export async function failAttempt(sql: Sql, policy: ThrottlePolicy, attempt: Attempt): Promise<FailureOutcome> {
  let delayMs = 0
  const locked: string[] = []
  for (const { key, rule, count } of attempt.keys) {
    if (count >= rule.lockAfter) {
      // Counting starts again after the lock: the next failures are delayed, then lock again.
      await sql.query(
        `UPDATE identity.sign_in_throttle SET failures = 0, locked_until = now() + make_interval(secs => $2) WHERE key = $1`,
        [key, policy.lockSeconds],
      )
      locked.push(key)
    } else if (count > rule.free) {
      delayMs = Math.max(delayMs, Math.min(policy.baseDelayMs * 2 ** (count - rule.free - 1), policy.maxDelayMs))
    }
  }
  return { delayMs, locked }
}

/** The password was right (or never checked): the attempt no longer counts. */
export async function releaseAttempt(sql: Sql, attempt: Attempt): Promise<void> {
  if (attempt.keys.length === 0) return
  await sql.query('UPDATE identity.sign_in_throttle SET failures = greatest(failures - 1, 0) WHERE key = ANY($1)', [
    attempt.keys.map(({ key }) => key),
  ])
}

/** A correct password clears the account's count (never the IP's: one's own account must not reset it). */
export async function recordSuccess(sql: Sql, email: string): Promise<void> {
  await sql.query(
    'DELETE FROM identity.sign_in_throttle WHERE key = $1 AND (locked_until IS NULL OR locked_until <= now())',
    [accountKey(email)],
  )
}
