import { GuardError, type Sql } from '@guard/shared'
import { z } from 'zod'
import { MEMBERSHIP_ROLES } from '../organizations/add-member.ts'
import { getOrganization } from '../organizations/view.ts'
import { getMember, type MembershipView } from './view.ts'

export const roleChange = z.strictObject({ role: z.enum(MEMBERSHIP_ROLES) })

/** An organization keeps at least one owner, so nobody can lock everyone out of its members. */
export async function assertOwnerRemains(sql: Sql, organizationId: string, leavingUserId: string): Promise<void> {
  const { rows } = await sql.query<{ owners: number }>(
    `SELECT count(*)::int AS owners FROM identity.memberships
      WHERE organization_id = $1 AND role = 'owner' AND user_id <> $2`,
    [organizationId, leavingUserId],
  )
  if (Number(rows[0]?.owners ?? 0) === 0) {
    throw new GuardError('CONFLICT', 'an organization needs at least one owner; make another member owner first')
  }
}

export async function changeMemberRole(
  sql: Sql,
  input: { organization: string; userId: string; changes: z.input<typeof roleChange> },
): Promise<MembershipView> {
  const { role } = roleChange.parse(input.changes)
  const organization = await getOrganization(sql, input.organization)
  const current = await getMember(sql, organization.id, input.userId)
  if (current.role === 'owner' && role !== 'owner') await assertOwnerRemains(sql, organization.id, input.userId)
  await sql.query('UPDATE identity.memberships SET role = $3 WHERE organization_id = $1 AND user_id = $2', [
    organization.id,
    input.userId,
    role,
  ])
  return getMember(sql, organization.id, input.userId)
}
