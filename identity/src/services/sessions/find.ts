import type { Sql } from '@guard/shared'
import { hashToken } from '../tokens/secret.ts'

export interface Session {
  /** The public id (listing, revoking); the cookie holds another, secret one. */
  id: string
  userId: string
  /** When the user entered the password: the ID token's auth_time. */
  authTime: Date
  /** RFC 8176 methods this sign-in proved (pwd, otp, hwk, swk, mfa), or `fed` through an upstream provider. */
  amr: string[]
}

export async function findSession(sql: Sql, id: string): Promise<Session | undefined> {
  const { rows } = await sql.query<{ id: string; user_id: string; auth_time: Date; amr: string[] }>(
    `SELECT s.id, s.user_id, s.auth_time, s.amr FROM identity.sessions s JOIN identity.users u ON u.id = s.user_id
      WHERE s.id_hash = $1 AND s.expires_at > now() AND u.disabled_at IS NULL`,
    [hashToken(id)],
  )
  const row = rows[0]
  return row ? { id: row.id, userId: row.user_id, authTime: new Date(row.auth_time), amr: row.amr } : undefined
}
