import type { Sql } from '@guard/shared'
import { getOrganization } from '../organizations/view.ts'
import { assertOwnerRemains } from './change-role.ts'
import { getMember, type MembershipView } from './view.ts'

export async function removeMember(sql: Sql, input: { organization: string; userId: string }): Promise<MembershipView> {
  const organization = await getOrganization(sql, input.organization)
  const member = await getMember(sql, organization.id, input.userId)
  if (member.role === 'owner') await assertOwnerRemains(sql, organization.id, input.userId)
  await sql.query('DELETE FROM identity.memberships WHERE organization_id = $1 AND user_id = $2', [
    organization.id,
    input.userId,
  ])
  return member
}
