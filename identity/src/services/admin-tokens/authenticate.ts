import type { Sql } from '@guard/shared'
import { hashToken } from '../tokens/secret.ts'

/** The token's id and name when it is a live admin token; the lookup is by hash, so no timing leak of the value. */
export async function authenticateAdminToken(
  sql: Sql,
  token: string,
): Promise<{ id: string; name: string } | undefined> {
  const { rows } = await sql.query<{ id: string; name: string }>(
    `UPDATE identity.admin_tokens SET last_used_at = now()
      WHERE token_hash = $1 AND revoked_at IS NULL RETURNING id, name`,
    [hashToken(token)],
  )
  return rows[0]
}
