import { GuardError, type Sql } from '@guard/shared'
import { z } from 'zod'
import { MEMBERSHIP_ROLES } from '../organizations/add-member.ts'
import { hashToken } from '../tokens/secret.ts'

/** Invitations live a week: long enough to be read, short enough that a stale link dies. */
export const INVITATION_SECONDS = 7 * 24 * 60 * 60

export const invitationView = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    email: z.email(),
    role: z.enum(MEMBERSHIP_ROLES),
    invitedBy: z.string(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
    status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
  })
  .meta({ id: 'Invitation' })

export type InvitationView = z.infer<typeof invitationView>

interface Row {
  id: string
  organization_id: string
  email: string
  role: InvitationView['role']
  invited_by: string
  created_at: Date
  expires_at: Date
  accepted_at: Date | null
  revoked_at: Date | null
}

const iso = (value: Date) => new Date(value).toISOString()

export const toInvitationView = (row: Row): InvitationView => ({
  id: row.id,
  organizationId: row.organization_id,
  email: row.email,
  role: row.role,
  invitedBy: row.invited_by,
  createdAt: iso(row.created_at),
  expiresAt: iso(row.expires_at),
  status: row.accepted_at
    ? 'accepted'
    : row.revoked_at
      ? 'revoked'
      : new Date(row.expires_at).getTime() <= Date.now()
        ? 'expired'
        : 'pending',
})

export async function listInvitations(sql: Sql, organizationId: string): Promise<InvitationView[]> {
  const { rows } = await sql.query<Row>(
    'SELECT * FROM identity.invitations WHERE organization_id = $1 ORDER BY created_at DESC',
    [organizationId],
  )
  return rows.map(toInvitationView)
}

export interface PendingInvitation extends InvitationView {
  organizationName: string
}

/** The invitation a link's token names, only while it can still be accepted. */
export async function findPendingInvitation(sql: Sql, token: string): Promise<PendingInvitation> {
  const { rows } = await sql.query<Row & { organization_name: string }>(
    `SELECT i.*, o.name AS organization_name FROM identity.invitations i
       JOIN identity.organizations o ON o.id = i.organization_id
      WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()`,
    [hashToken(token)],
  )
  const row = rows[0]
  if (!row) throw new GuardError('NOT_FOUND', 'this invitation link is unknown, used, revoked or expired')
  return { ...toInvitationView(row), organizationName: row.organization_name }
}

export async function revokeInvitation(
  sql: Sql,
  input: { organizationId: string; id: string },
): Promise<InvitationView> {
  const { rows } = await sql.query<Row>(
    `UPDATE identity.invitations SET revoked_at = now()
      WHERE id = $1 AND organization_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING *`,
    [input.id, input.organizationId],
  )
  const row = rows[0]
  if (!row) throw new GuardError('NOT_FOUND', `pending invitation ${input.id} not found`)
  return toInvitationView(row)
}
