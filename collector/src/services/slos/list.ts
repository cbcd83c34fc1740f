import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { SLO_SELECT, type SloRow, toSloView } from './find.ts'

/** The organization's SLOs by name. */
export async function listSlos({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { organizationId?: string | undefined }
}) {
  const organizationId = organizationScope(caller, input.organizationId)
  const { rows } = await ctx.sql.query<SloRow>(`${SLO_SELECT} WHERE s.organization_id = $1 ORDER BY s.name, s.id`, [
    organizationId,
  ])
  return rows.map(toSloView)
}
