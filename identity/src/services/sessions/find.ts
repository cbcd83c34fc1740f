import type { Sql } from '@guard/shared'
import { hashToken } from '../tokens/secret.ts'

export interface Session {
  userId: string
  /** When the user entered the password: the ID token's auth_time. */
  authTime: Date
}

export async function findSession(sql: Sql, id: string): Promise<Session | undefined> {
  const { rows } = await sql.query<{ user_id: string; auth_time: Date }>(
    'SELECT user_id, auth_time FROM identity.sessions WHERE id_hash = $1 AND expires_at > now()',
    [hashToken(id)],
  )
  const row = rows[0]
  return row ? { userId: row.user_id, authTime: new Date(row.auth_time) } : undefined
}
