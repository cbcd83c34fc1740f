import type { OrganizationClaim, Sql } from '@guard/shared'

/** The user's organizations with the role of each membership, as the `organizations` claim carries them. */
export async function listOrganizationsOf(sql: Sql, userId: string): Promise<Required<OrganizationClaim>[]> {
  const { rows } = await sql.query<{ id: string; name: string; slug: string; role: string; membership_id: string }>(
    `SELECT o.id, o.name, o.slug, m.role, m.id AS membership_id
       FROM identity.memberships m JOIN identity.organizations o ON o.id = m.organization_id
      WHERE m.user_id = $1 ORDER BY m.created_at, o.slug`,
    [userId],
  )
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    role: row.role,
    membershipId: row.membership_id,
  }))
}
