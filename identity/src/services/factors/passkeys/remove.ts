import { GuardError, type Sql } from '@guard/shared'

/** Removes one of the user's own passkeys; another user's is as unknown as a missing one. */
export async function removePasskey(sql: Sql, input: { userId: string; passkeyId: string }): Promise<void> {
  const { affectedRows } = await sql.query('DELETE FROM identity.passkeys WHERE id = $1 AND user_id = $2', [
    input.passkeyId,
    input.userId,
  ])
  if (affectedRows === 0) throw new GuardError('NOT_FOUND', `passkey ${input.passkeyId} not found`)
}
