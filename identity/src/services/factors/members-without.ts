import type { Sql } from '@guard/shared'

/** Members of the organization with neither a passkey nor a confirmed authenticator app. */
export async function listMembersWithoutSecondFactor(
  sql: Sql,
  organizationId: string,
): Promise<Array<{ userId: string; email: string; role: string }>> {
  const { rows } = await sql.query<{ user_id: string; email: string; role: string }>(
    `SELECT m.user_id, u.email, m.role FROM identity.memberships m JOIN identity.users u ON u.id = m.user_id
      WHERE m.organization_id = $1
        AND NOT EXISTS (SELECT 1 FROM identity.passkeys p WHERE p.user_id = m.user_id)
        AND NOT EXISTS (SELECT 1 FROM identity.totp_secrets t WHERE t.user_id = m.user_id AND t.confirmed_at IS NOT NULL)
      ORDER BY u.email`,
    [organizationId],
  )
  return rows.map((row) => ({ userId: row.user_id, email: row.email, role: row.role }))
}
