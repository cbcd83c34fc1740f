import type { Caller, CollectorContext } from '../../context.ts'
import { findStatusPage } from './find.ts'

export async function deleteStatusPage(ctx: CollectorContext, caller: Caller, id: string): Promise<void> {
  const page = await findStatusPage(ctx.sql, caller, id)
  await ctx.sql.query('DELETE FROM monitoring.status_pages WHERE id = $1', [page.id])
}
