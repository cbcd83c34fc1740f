import type { Sql } from '@guard/shared'

/**
 * Deletes what can no longer be used. Rotated refresh tokens stay until they expire, so reuse
 * is still detected; a used code stays a day past its expiry, so a late replay still revokes.
 */
export async function pruneExpired(sql: Sql): Promise<void> {
  await sql.query(`DELETE FROM identity.authorization_codes WHERE expires_at < now() - interval '1 day'`)
  await sql.query('DELETE FROM identity.access_tokens WHERE expires_at < now()')
  await sql.query('DELETE FROM identity.refresh_tokens WHERE expires_at < now()')
  await sql.query('DELETE FROM identity.sessions WHERE expires_at < now()')
  await sql.query(
    `DELETE FROM identity.grants g WHERE g.created_at < now() - interval '1 day'
       AND NOT EXISTS (SELECT 1 FROM identity.refresh_tokens r WHERE r.grant_id = g.id)
       AND NOT EXISTS (SELECT 1 FROM identity.access_tokens a WHERE a.grant_id = g.id)`,
  )
}
