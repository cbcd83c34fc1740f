import { GuardError, newId, type Sql } from '@guard/shared'
import { createUser } from '../users/create.ts'
import { findPendingInvitation, type PendingInvitation } from './view.ts'

/**
 * Accepts the invitation once: as the signed-in user (whose email must be the invited one), or by
 * creating the invited user with the name and password given. Returns the member's user id.
 */
export async function acceptInvitation(
  sql: Sql,
  input: { token: string } & ({ userId: string } | { name: string; password: string }),
): Promise<{ userId: string; invitation: PendingInvitation }> {
  return sql.transaction(async (tx) => {
    const invitation = await findPendingInvitation(tx, input.token)
    let userId: string
    if ('userId' in input) {
      const { rows } = await tx.query<{ email: string }>('SELECT email FROM identity.users WHERE id = $1', [
        input.userId,
      ])
      if (rows[0]?.email.toLowerCase() !== invitation.email.toLowerCase()) {
        throw new GuardError(
          'FORBIDDEN',
          `this invitation is for ${invitation.email}; sign in as that user to accept it`,
        )
      }
      userId = input.userId
    } else {
      userId = (await createUser(tx, { email: invitation.email, name: input.name, password: input.password })).id
    }
    // Single use, even against two tabs accepting at once: only one UPDATE finds it pending.
    const used = await tx.query(
      `UPDATE identity.invitations SET accepted_at = now(), accepted_by = $2 WHERE id = $1 AND accepted_at IS NULL`,
      [invitation.id, userId],
    )
    if (used.affectedRows === 0) throw new GuardError('CONFLICT', 'this invitation was accepted already')
    await tx.query(
      `INSERT INTO identity.memberships (id, organization_id, user_id, role) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, user_id) DO NOTHING`,
      [newId(), invitation.organizationId, userId, invitation.role],
    )
    return { userId, invitation }
  })
}
