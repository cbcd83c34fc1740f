import type { Sql } from '@guard/shared'
import { hashToken, randomToken } from '../tokens/secret.ts'

/** How long a sign-in lasts before the pages ask for the password again. */
export const SESSION_SECONDS = 12 * 60 * 60

/** Returns the new session id, which only the cookie holds; the table keeps its hash. */
export async function createSession(
  sql: Sql,
  userId: string,
  from: { ip?: string | undefined; userAgent?: string | undefined } = {},
  amr: readonly string[] = ['pwd'],
): Promise<string> {
  const id = randomToken()
  await sql.query(
    `INSERT INTO identity.sessions (id_hash, user_id, auth_time, expires_at, ip, user_agent, amr)
     VALUES ($1, $2, now(), now() + make_interval(secs => $3), $4, $5, $6)`,
    [hashToken(id), userId, SESSION_SECONDS, from.ip ?? null, from.userAgent?.slice(0, 512) ?? null, [...amr]],
  )
  return id
}
