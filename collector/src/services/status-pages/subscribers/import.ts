import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'
import { findStatusPage } from '../find.ts'
import { checkComponentIds } from './find-page.ts'
import { importSubscribersInput } from './schemas.ts'

/**
 * Imports e-mail subscribers the organization already has consent from (a list moved from another
 * tool): they are confirmed at once, without a confirmation mail. Addresses already subscribed are
 * left as they are; the answer counts the new ones.
 */
export async function importSubscribers({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { pageId: string; emails: string[]; componentIds?: string[] }
}) {
  const parsed = importSubscribersInput.parse({ emails: input.emails, componentIds: input.componentIds })
  const page = await findStatusPage(ctx.sql, caller, input.pageId)
  const componentIds = await checkComponentIds(ctx.sql, page, parsed.componentIds)
  const emails = [...new Set(parsed.emails)]
  const { affectedRows } = await ctx.sql.query(
    `INSERT INTO monitoring.status_page_subscribers (id, page_id, organization_id, kind, target, component_ids, confirmed_at)
     SELECT id, $1, $2, 'email', target, $3, now() FROM unnest($4::text[], $5::text[]) AS t(id, target)
     ON CONFLICT (page_id, target) WHERE kind = 'email' DO NOTHING`,
    [page.id, page.organization_id, componentIds, emails.map(() => newId()), emails],
  )
  return { imported: affectedRows, skipped: emails.length - affectedRows }
}
