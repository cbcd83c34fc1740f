import type { Caller, CollectorContext } from '../../context.ts'
import { findSlo } from './find.ts'

export async function deleteSlo({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}) {
  const row = await findSlo(ctx.sql, caller.organizationIds, input.id)
  await ctx.sql.query('DELETE FROM monitoring.slos WHERE id = $1', [row.id])
  return { id: row.id, deleted: true as const }
}
