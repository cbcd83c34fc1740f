import { notFound } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'
import { findStatusPage } from '../find.ts'
import { forgetSubscribers } from './queue.ts'

/** Removes one subscriber of the page, with every message still queued for it. */
export async function removeSubscriber({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { pageId: string; subscriberId: string }
}) {
  const page = await findStatusPage(ctx.sql, caller, input.pageId)
  await ctx.sql.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      'SELECT id FROM monitoring.status_page_subscribers WHERE id = $1 AND page_id = $2 AND organization_id = $3',
      [input.subscriberId, page.id, page.organization_id],
    )
    if (!rows[0]) throw notFound('Subscriber')
    await forgetSubscribers(tx, [rows[0].id])
  })
  return { id: input.subscriberId, deleted: true as const }
}
