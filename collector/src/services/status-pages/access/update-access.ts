import { GuardError, hashPassword } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'
import { ACCESS_COLUMNS, type AccessRow, findAccessRow, toAccessView } from './get-access.ts'
import { type StatusPageAccessView, type UpdateAccessInput, updateAccessInput } from './schemas.ts'

/**
 * Sets who may see the page. A new password replaces the stored hash, which also ends every
 * visitor's page session (the session cookie is bound to the hash); other modes keep the hash so
 * switching back to password mode needs no new one. The allow-list is kept the same way.
 */
export async function updateStatusPageAccess({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string; body: UpdateAccessInput }
}): Promise<StatusPageAccessView> {
  const body = updateAccessInput.parse(input.body)
  const page = await findAccessRow(ctx.sql, caller, input.id)
  const passwordHash = body.password === undefined ? page.password_hash : await hashPassword(body.password)
  if (body.mode === 'password' && passwordHash === null) {
    throw new GuardError('VALIDATION_ERROR', 'password: a password page needs a password (none is set yet)')
  }
  const { rows: updated } = await ctx.sql.query<AccessRow>(
    `UPDATE monitoring.status_pages
        SET access_mode = $2, password_hash = $3, ip_allow_list = coalesce($4::jsonb, ip_allow_list), updated_at = now()
      WHERE id = $1
      RETURNING ${ACCESS_COLUMNS}`,
    [page.id, body.mode, passwordHash, body.allowList === undefined ? null : JSON.stringify(body.allowList)],
  )
  return toAccessView(updated[0]!)
}
