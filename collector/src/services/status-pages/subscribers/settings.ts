import type { Caller, CollectorContext } from '../../../context.ts'
import { findStatusPage } from '../find.ts'
import { type SubscriberSettings, subscriberSettings } from './schemas.ts'

const read = async (ctx: CollectorContext, pageId: string): Promise<SubscriberSettings> => {
  const { rows } = await ctx.sql.query<{ maintenance_notice_hours: number }>(
    'SELECT maintenance_notice_hours FROM monitoring.status_pages WHERE id = $1',
    [pageId],
  )
  return { maintenanceNoticeHours: rows[0]?.maintenance_notice_hours ?? 24 }
}

export async function getSubscriberSettings({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { pageId: string }
}) {
  const page = await findStatusPage(ctx.sql, caller, input.pageId)
  return read(ctx, page.id)
}

/** How many hours ahead the page's subscribers hear of a maintenance window. */
export async function updateSubscriberSettings({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { pageId: string; settings: SubscriberSettings }
}) {
  const settings = subscriberSettings.parse(input.settings)
  const page = await findStatusPage(ctx.sql, caller, input.pageId)
  await ctx.sql.query(
    'UPDATE monitoring.status_pages SET maintenance_notice_hours = $2, updated_at = now() WHERE id = $1 AND organization_id = $3',
    [page.id, settings.maintenanceNoticeHours, page.organization_id],
  )
  return read(ctx, page.id)
}
