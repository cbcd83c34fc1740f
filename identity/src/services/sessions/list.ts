import { GuardError, type Sql } from '@guard/shared'
import { z } from 'zod'

export const sessionView = z
  .object({
    id: z.string(),
    createdAt: z.iso.datetime(),
    authTime: z.iso.datetime().describe('when the password was entered'),
    expiresAt: z.iso.datetime(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
  })
  .meta({ id: 'Session' })

export type SessionView = z.infer<typeof sessionView>

interface Row {
  id: string
  created_at: Date
  auth_time: Date
  expires_at: Date
  ip: string | null
  user_agent: string | null
}

const iso = (value: Date) => new Date(value).toISOString()

/** The user's live browser sessions, newest first. */
export async function listSessions(sql: Sql, userId: string): Promise<SessionView[]> {
  const { rows } = await sql.query<Row>(
    `SELECT id, created_at, auth_time, expires_at, ip, user_agent FROM identity.sessions
      WHERE user_id = $1 AND expires_at > now() ORDER BY created_at DESC`,
    [userId],
  )
  return rows.map((row) => ({
    id: row.id,
    createdAt: iso(row.created_at),
    authTime: iso(row.auth_time),
    expiresAt: iso(row.expires_at),
    ip: row.ip,
    userAgent: row.user_agent,
  }))
}

/** Ends one of the user's own sessions; another user's is as unknown as a missing one. */
export async function revokeSession(sql: Sql, input: { userId: string; sessionId: string }): Promise<void> {
  const { affectedRows } = await sql.query('DELETE FROM identity.sessions WHERE id = $1 AND user_id = $2', [
    input.sessionId,
    input.userId,
  ])
  if (affectedRows === 0) throw new GuardError('NOT_FOUND', `session ${input.sessionId} not found`)
}
