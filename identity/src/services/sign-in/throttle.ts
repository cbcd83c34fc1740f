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

export interface FailureOutcome {
  /** How long to hold the answer. */
  delayMs: number
  /** The keys this failure locked. */
  locked: string[]
}

/** Counts one failure against each key: `evaluated` keys were checked, the others only hammered. */
export async function recordFailure(
  sql: Sql,
  policy: ThrottlePolicy,
  failures: Array<{ key: string; rule: { free: number; lockAfter: number } }>,
): Promise<FailureOutcome> {
  let delayMs = 0
  const locked: string[] = []
  for (const { key, rule } of failures) {
    const { rows } = await sql.query<{ failures: number }>(
      `INSERT INTO identity.sign_in_throttle AS t (key, failures, last_failure_at) VALUES ($1, 1, now())
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN t.last_failure_at < now() - make_interval(secs => $2) THEN 1 ELSE t.failures + 1 END,
         last_failure_at = now()
       RETURNING failures`,
      [key, policy.lockSeconds],
    )
    const count = Number(rows[0]?.failures ?? 1)
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

/** A correct password clears the account's count (never the IP's: one's own account must not reset it). */
export async function recordSuccess(sql: Sql, email: string): Promise<void> {
  await sql.query(
    'DELETE FROM identity.sign_in_throttle WHERE key = $1 AND (locked_until IS NULL OR locked_until <= now())',
    [accountKey(email)],
  )
}
