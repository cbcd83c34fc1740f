import { GuardError, type Sql } from '@guard/shared'
import { passkeyName } from './schemas.ts'

/** Renames one of the user's own passkeys; another user's is as unknown as a missing one. */
export async function renamePasskey(sql: Sql, input: { userId: string; passkeyId: string; name: string }) {
  const name = passkeyName.parse(input.name)
  const { affectedRows } = await sql.query('UPDATE identity.passkeys SET name = $3 WHERE id = $1 AND user_id = $2', [
    input.passkeyId,
    input.userId,
    name,
  ])
  if (affectedRows === 0) throw new GuardError('NOT_FOUND', `passkey ${input.passkeyId} not found`)
}
