import { GuardError, type Sql } from '@guard/shared'

/** Removes the user's authenticator app; recovery codes stay while a passkey remains. */
export async function removeTotp(sql: Sql, userId: string): Promise<void> {
  const { affectedRows } = await sql.query('DELETE FROM identity.totp_secrets WHERE user_id = $1', [userId])
  if (affectedRows === 0) throw new GuardError('NOT_FOUND', 'no authenticator app is set up')
}
