import { GuardError, newId, type Sql } from '@guard/shared'
import { z } from 'zod'
import { MEMBERSHIP_ROLES } from '../organizations/add-member.ts'
import { hashToken, randomToken } from '../tokens/secret.ts'
import { INVITATION_SECONDS, type InvitationView, toInvitationView } from './view.ts'

export const invitationInput = z.strictObject({
  email: z.email(),
  role: z.enum(MEMBERSHIP_ROLES).default('member'),
})

export const ACCEPT_PATH = '/invitations/accept'

/**
 * A new invitation and its link, which holds the only copy of the token. `inviterRole` is the
 * inviter's role in the organization (undefined for the platform's admin API): only an owner may
 * invite an owner.
 */
export async function createInvitation(
  sql: Sql,
  input: {
    organizationId: string
    invitedBy: string
    inviterRole: string | undefined
    issuer: string
    invitation: z.input<typeof invitationInput>
  },
): Promise<{ invitation: InvitationView; link: string }> {
  const { email, role } = invitationInput.parse(input.invitation)
  if (role === 'owner' && input.inviterRole !== undefined && input.inviterRole !== 'owner') {
    throw new GuardError('FORBIDDEN', 'only an owner may invite an owner')
  }
  const member = await sql.query(
    `SELECT 1 FROM identity.memberships m JOIN identity.users u ON u.id = m.user_id
      WHERE m.organization_id = $1 AND lower(u.email) = lower($2)`,
    [input.organizationId, email],
  )
  if (member.rows.length > 0) throw new GuardError('CONFLICT', `${email} is already a member`)
  const token = randomToken()
  const { rows } = await sql.query<Parameters<typeof toInvitationView>[0]>(
    `INSERT INTO identity.invitations (id, organization_id, email, role, token_hash, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7)) RETURNING *`,
    [newId(), input.organizationId, email, role, hashToken(token), input.invitedBy, INVITATION_SECONDS],
  )
  const link = `${input.issuer}${ACCEPT_PATH}?${new URLSearchParams({ token })}`
  return { invitation: toInvitationView(rows[0] as Parameters<typeof toInvitationView>[0]), link }
}
