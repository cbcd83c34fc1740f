import { notFound } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { findStatusPage, toStatusPageDetail } from './find.ts'
import type { StatusPageDetail } from './schemas.ts'

export async function removeStatusPageComponent(
  ctx: CollectorContext,
  caller: Caller,
  pageId: string,
  componentId: string,
): Promise<StatusPageDetail> {
  const page = await findStatusPage(ctx.sql, caller, pageId)
  const removed = await ctx.sql.query('DELETE FROM monitoring.status_page_components WHERE id = $1 AND page_id = $2', [
    componentId,
    page.id,
  ])
  if (removed.affectedRows === 0) throw notFound('Component')
  return toStatusPageDetail(ctx.sql, await findStatusPage(ctx.sql, caller, pageId))
}
