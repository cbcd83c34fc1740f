import { GuardError, type Sql } from '@guard/shared'

/**
 * Removes every second factor of a user who lost them (passkeys, authenticator app, recovery
 * codes) and ends their sessions, so the next sign-in starts from the password; an organization
 * requiring a factor then sends them to enrol again.
 */
export async function resetSecondFactors(
  sql: Sql,
  userId: string,
): Promise<{ passkeys: number; totp: boolean; recoveryCodes: number }> {
  const { rows } = await sql.query('SELECT 1 FROM identity.users WHERE id = $1', [userId])
  if (rows.length === 0) throw new GuardError('NOT_FOUND', `user ${userId} not found`)
  const passkeys = await sql.query('DELETE FROM identity.passkeys WHERE user_id = $1', [userId])
  const totp = await sql.query('DELETE FROM identity.totp_secrets WHERE user_id = $1', [userId])
  const codes = await sql.query('DELETE FROM identity.recovery_codes WHERE user_id = $1', [userId])
  await sql.query('DELETE FROM identity.sessions WHERE user_id = $1', [userId])
  return { passkeys: passkeys.affectedRows, totp: totp.affectedRows > 0, recoveryCodes: codes.affectedRows }
}
