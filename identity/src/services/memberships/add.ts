import { GuardError, newId, type Sql } from '@guard/shared'
import { z } from 'zod'
import { MEMBERSHIP_ROLES } from '../organizations/add-member.ts'
import { getOrganization } from '../organizations/view.ts'
import { getMember, type MembershipView } from './view.ts'

export const membershipInput = z
  .strictObject({
    userId: z.string().min(1).optional(),
    email: z.email().optional(),
    role: z.enum(MEMBERSHIP_ROLES).default('member'),
  })
  .refine((value) => (value.userId === undefined) !== (value.email === undefined), 'give userId or email, not both')

/** Adds the user (by id or email) to the organization; an existing member is a conflict, not a silent role change. */
export async function addMembership(
  sql: Sql,
  input: { organization: string; member: z.input<typeof membershipInput> },
): Promise<MembershipView> {
  const member = membershipInput.parse(input.member)
  const organization = await getOrganization(sql, input.organization)
  const { rows } = await sql.query<{ id: string }>(
    'SELECT id FROM identity.users WHERE id = $1 OR lower(email) = lower($2)',
    [member.userId ?? null, member.email ?? null],
  )
  const user = rows[0]
  if (!user) throw new GuardError('NOT_FOUND', `user ${member.userId ?? member.email} not found`)
  const inserted = await sql.query(
    `INSERT INTO identity.memberships (id, organization_id, user_id, role) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id, user_id) DO NOTHING RETURNING id`,
    [newId(), organization.id, user.id, member.role],
  )
  if (inserted.rows.length === 0) {
    throw new GuardError(
      'CONFLICT',
      `user ${user.id} is already a member of ${organization.slug}; change the role instead`,
    )
  }
  return getMember(sql, organization.id, user.id)
}
