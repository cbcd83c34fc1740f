import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'
import { customDomainsChanged } from '../custom-domains.ts'
import { ACCESS_COLUMNS, type AccessRow, findAccessRow, toAccessView } from './get-access.ts'
import { type StatusPageAccessView, type UpdateDomainInput, updateDomainInput } from './schemas.ts'

/**
 * Sets the host name the page answers on. One page per host across the installation (409), and
 * never the collector's own public host, which serves the console and the API.
 */
export async function updateStatusPageDomain({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string; body: UpdateDomainInput }
}): Promise<StatusPageAccessView> {
  const { customDomain } = updateDomainInput.parse(input.body)
  const publicHost = ctx.env.GUARD_PUBLIC_URL ? new URL(ctx.env.GUARD_PUBLIC_URL).hostname : undefined
  if (customDomain !== null && customDomain === publicHost) {
    throw new GuardError('VALIDATION_ERROR', "customDomain: this is the collector's own public host")
  }
  const page = await findAccessRow(ctx.sql, caller, input.id)
  let rows: AccessRow[]
  try {
    ;({ rows } = await ctx.sql.query<AccessRow>(
      `UPDATE monitoring.status_pages SET custom_domain = $2, updated_at = now() WHERE id = $1
        RETURNING ${ACCESS_COLUMNS}`,
      [page.id, customDomain],
    ))
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw new GuardError('CONFLICT', 'Another status page already uses this custom domain')
    }
    throw error
  }
  await customDomainsChanged(ctx)
  return toAccessView(rows[0]!)
}
