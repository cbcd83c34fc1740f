import type { Sql } from '@guard/shared'
import { hashPassword, verifyPassword } from './password.ts'

// Verified against when the email is unknown, so a wrong email costs as long as a wrong password.
let decoyHash: Promise<string> | undefined

/** The user id for a correct email and password, otherwise undefined. */
export async function authenticateUser(sql: Sql, email: string, password: string): Promise<string | undefined> {
  const { rows } = await sql.query<{ id: string; password_hash: string; disabled_at: Date | null }>(
    'SELECT id, password_hash, disabled_at FROM identity.users WHERE lower(email) = lower($1)',
    [email],
  )
  const row = rows[0]
  if (!row) {
    decoyHash ??= hashPassword('decoy password that never matches')
    await verifyPassword(password, await decoyHash)
    return undefined
  }
  // A disabled account answers like a wrong password, after the same work.
  return (await verifyPassword(password, row.password_hash)) && !row.disabled_at ? row.id : undefined
}
