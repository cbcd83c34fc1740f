import { GuardError, type Sql } from '@guard/shared'
import { z } from 'zod'
import { MEMBERSHIP_ROLES } from '../organizations/add-member.ts'

export const membershipView = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    userId: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(MEMBERSHIP_ROLES),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AdminMembership' })

export type MembershipView = z.infer<typeof membershipView>

interface Row {
  id: string
  organization_id: string
  user_id: string
  email: string
  name: string
  role: MembershipView['role']
  created_at: Date
}

const SELECT = `SELECT m.id, m.organization_id, m.user_id, u.email, u.name, m.role, m.created_at
  FROM identity.memberships m JOIN identity.users u ON u.id = m.user_id`

const toView = (row: Row): MembershipView => ({
  id: row.id,
  organizationId: row.organization_id,
  userId: row.user_id,
  email: row.email,
  name: row.name,
  role: row.role,
  createdAt: new Date(row.created_at).toISOString(),
})

export async function listMembers(sql: Sql, organizationId: string): Promise<MembershipView[]> {
  const { rows } = await sql.query<Row>(`${SELECT} WHERE m.organization_id = $1 ORDER BY m.created_at, u.email`, [
    organizationId,
  ])
  return rows.map(toView)
}

export async function getMember(sql: Sql, organizationId: string, userId: string): Promise<MembershipView> {
  const { rows } = await sql.query<Row>(`${SELECT} WHERE m.organization_id = $1 AND m.user_id = $2`, [
    organizationId,
    userId,
  ])
  const row = rows[0]
  if (!row) throw new GuardError('NOT_FOUND', `user ${userId} is not a member of organization ${organizationId}`)
  return toView(row)
}
