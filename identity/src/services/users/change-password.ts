import { GuardError, type Sql } from '@guard/shared'
import { z } from 'zod'
import { endUserSessions } from './end-sessions.ts'
import { hashPassword, verifyPassword } from './password.ts'

export const passwordChange = z.strictObject({
  currentPassword: z.string().max(1024),
  newPassword: z.string().min(12, 'must be at least 12 characters').max(1024),
})

/**
 * The user's own password change: the current password proves it is them. Every browser session
 * and every other token family ends, so whoever knew the old password loses access; the token
 * family the change was made with (`keepGrantId`) stays.
 */
export async function changePassword(
  sql: Sql,
  input: { userId: string; keepGrantId: string | undefined; change: z.input<typeof passwordChange> },
): Promise<void> {
  const change = passwordChange.parse(input.change)
  const { rows } = await sql.query<{ password_hash: string }>(
    'SELECT password_hash FROM identity.users WHERE id = $1',
    [input.userId],
  )
  const row = rows[0]
  if (!row || !(await verifyPassword(change.currentPassword, row.password_hash))) {
    throw new GuardError('FORBIDDEN', 'the current password is wrong')
  }
  await sql.query('UPDATE identity.users SET password_hash = $2 WHERE id = $1', [
    input.userId,
    await hashPassword(change.newPassword),
  ])
  await endUserSessions(sql, input.userId, { grantId: input.keepGrantId })
}
