import { GuardError, type Sql } from '@guard/shared'
import { z } from 'zod'
import { endUserSessions } from './end-sessions.ts'
import { hashPassword } from './password.ts'
import { getUser, USER_ROLES, type UserView } from './view.ts'

export const userUpdate = z
  .strictObject({
    name: z.string().min(1).max(200).optional(),
    role: z.enum(USER_ROLES).optional(),
    password: z.string().min(12, 'must be at least 12 characters').max(1024).optional(),
    disabled: z.boolean().optional(),
  })
  .refine((value) => Object.keys(value).length > 0, 'give at least one of name, role, password, disabled')

/**
 * A new password or disabling signs the user out everywhere: whoever held the old password or a
 * session must not keep access through it.
 */
export async function updateUser(
  sql: Sql,
  input: { id: string; changes: z.input<typeof userUpdate> },
): Promise<UserView> {
  const changes = userUpdate.parse(input.changes)
  const passwordHash = changes.password ? await hashPassword(changes.password) : null
  const { rows } = await sql.query<{ id: string }>(
    `UPDATE identity.users SET
        name = coalesce($2, name),
        role = coalesce($3, role),
        password_hash = coalesce($4, password_hash),
        disabled_at = CASE WHEN $5::boolean IS NULL THEN disabled_at
                           WHEN $5::boolean THEN coalesce(disabled_at, now()) ELSE NULL END
      WHERE id = $1 RETURNING id`,
    [input.id, changes.name ?? null, changes.role ?? null, passwordHash, changes.disabled ?? null],
  )
  if (rows.length === 0) throw new GuardError('NOT_FOUND', `user ${input.id} not found`)
  if (passwordHash || changes.disabled) await endUserSessions(sql, input.id)
  return getUser(sql, input.id)
}
