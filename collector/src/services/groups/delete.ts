import type { Caller, CollectorContext } from '../../context.ts'
import { findGroup } from './find.ts'

/** Deletes a group: its members become ungrouped and its child groups top-level (the foreign keys do both). */
export async function deleteGroup({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}) {
  const group = await findGroup(ctx.sql, caller.organizationIds, input.id)
  await ctx.sql.query('DELETE FROM monitoring.monitor_groups WHERE id = $1 AND organization_id = $2', [
    group.id,
    group.organization_id,
  ])
  return { id: group.id, deleted: true as const }
}
