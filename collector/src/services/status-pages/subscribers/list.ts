import type { Caller, CollectorContext } from '../../../context.ts'
import { findStatusPage } from '../find.ts'
import type { SubscriberView } from './schemas.ts'

interface SubscriberRow {
  id: string
  kind: 'email' | 'webhook'
  target: string
  component_ids: string[]
  confirmed_at: Date | null
  created_at: Date
}

/** The page's subscribers, oldest first; pending ones (not yet confirmed) included. */
export async function listSubscribers({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { pageId: string }
}): Promise<SubscriberView[]> {
  const page = await findStatusPage(ctx.sql, caller, input.pageId)
  const { rows } = await ctx.sql.query<SubscriberRow>(
    `SELECT id, kind, target, component_ids, confirmed_at, created_at FROM monitoring.status_page_subscribers
      WHERE page_id = $1 AND organization_id = $2 ORDER BY created_at, id`,
    [page.id, page.organization_id],
  )
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    target: row.target,
    componentIds: row.component_ids,
    confirmed: row.confirmed_at !== null,
    confirmedAt: row.confirmed_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  }))
}
