import type { Sql } from '@guard/shared'

/** Ends a token family: its refresh tokens stop refreshing and its access tokens stop at userinfo. */
export async function revokeGrant(sql: Sql, grantId: string): Promise<void> {
  await sql.query('UPDATE identity.grants SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [grantId])
}
