import type { Sql } from '@guard/shared'

/** Long enough to touch a security key or find a phone; the browser's own timeout is shorter. */
const CHALLENGE_SECONDS = 5 * 60

export type ChallengePurpose = 'register' | 'authenticate'

export async function storeChallenge(
  sql: Sql,
  input: { challenge: string; purpose: ChallengePurpose; userId: string | undefined },
): Promise<void> {
  await sql.query('DELETE FROM identity.webauthn_challenges WHERE expires_at <= now()')
  await sql.query(
    `INSERT INTO identity.webauthn_challenges (challenge, purpose, user_id, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [input.challenge, input.purpose, input.userId ?? null, CHALLENGE_SECONDS],
  )
}

/**
 * Takes a challenge out, so an answer to it is accepted once; undefined when it is unknown, expired,
 * for another purpose or another user. `userId` undefined matches only a challenge issued without one.
 */
export async function takeChallenge(
  sql: Sql,
  input: { challenge: string; purpose: ChallengePurpose; userId: string | undefined },
): Promise<boolean> {
  const { affectedRows } = await sql.query(
    `DELETE FROM identity.webauthn_challenges
      WHERE challenge = $1 AND purpose = $2 AND user_id IS NOT DISTINCT FROM $3 AND expires_at > now()`,
    [input.challenge, input.purpose, input.userId ?? null],
  )
  return affectedRows > 0
}
