import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { findStatusPage, readComponents, toStatusPageDetail } from './find.ts'
import { orderComponentsInput, type StatusPageDetail } from './schemas.ts'

/** Sets the order of all components at once: the body names every component of the page exactly once. */
export async function orderStatusPageComponents(
  ctx: CollectorContext,
  caller: Caller,
  pageId: string,
  body: unknown,
): Promise<StatusPageDetail> {
  const { componentIds } = orderComponentsInput.parse(body)
  const page = await findStatusPage(ctx.sql, caller, pageId)
  const current = new Set((await readComponents(ctx.sql, page)).map((component) => component.id))
  if (componentIds.length !== current.size || componentIds.some((id) => !current.has(id))) {
    throw new GuardError('VALIDATION_ERROR', 'componentIds must list every component of the page exactly once')
  }
  await ctx.sql.transaction(async (tx) => {
    for (const [position, id] of componentIds.entries()) {
      await tx.query('UPDATE monitoring.status_page_components SET position = $3 WHERE id = $1 AND page_id = $2', [
        id,
        page.id,
        position,
      ])
    }
  })
  return toStatusPageDetail(ctx.sql, await findStatusPage(ctx.sql, caller, pageId))
}
