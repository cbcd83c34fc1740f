import type { Sql } from '@guard/shared'

/**
 * Signs the user out everywhere: browser sessions end and every token family is revoked
 * (refresh tokens stop, access tokens stop at userinfo). `keep` spares the caller's own session
 * or token family, so changing one's password does not end the session it was changed from.
 */
export async function endUserSessions(
  sql: Sql,
  userId: string,
  keep: { sessionId?: string | undefined; grantId?: string | undefined } = {},
): Promise<void> {
  await sql.query('DELETE FROM identity.sessions WHERE user_id = $1 AND ($2::text IS NULL OR id <> $2)', [
    userId,
    keep.sessionId ?? null,
  ])
  await sql.query(
    `UPDATE identity.grants SET revoked_at = now()
      WHERE user_id = $1 AND revoked_at IS NULL AND ($2::text IS NULL OR id <> $2)`,
    [userId, keep.grantId ?? null],
  )
}
