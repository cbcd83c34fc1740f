import { GuardError, newId, type Sql } from '@guard/shared'

/** Membership roles, strongest first; collector maps each to its permissions. */
export const MEMBERSHIP_ROLES = ['owner', 'admin', 'member', 'viewer'] as const

export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number]

export async function addMember(sql: Sql, input: { organizationSlug: string; userId: string; role: MembershipRole }) {
  const { rows } = await sql.query<{ id: string }>('SELECT id FROM identity.organizations WHERE slug = $1', [
    input.organizationSlug,
  ])
  const organization = rows[0]
  if (!organization) throw new GuardError('NOT_FOUND', `organization ${input.organizationSlug} not found`)
  const id = newId()
  await sql.query(
    `INSERT INTO identity.memberships (id, organization_id, user_id, role) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
    [id, organization.id, input.userId, input.role],
  )
  return { organizationId: organization.id, role: input.role }
}
