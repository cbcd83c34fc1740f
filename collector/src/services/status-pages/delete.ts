import type { Caller, CollectorContext } from '../../context.ts'
import { recordChange } from '../activity/record-change.ts'
import { findStatusPage } from './find.ts'

export async function deleteStatusPage(ctx: CollectorContext, caller: Caller, id: string): Promise<void> {
  const page = await findStatusPage(ctx.sql, caller, id)
  await ctx.sql.transaction(async (tx) => {
    await tx.query('DELETE FROM monitoring.status_pages WHERE id = $1', [page.id])
    await recordChange(tx, {
      organizationId: page.organization_id,
      kind: 'status-page',
      action: 'deleted',
      id: page.id,
      name: page.name,
    })
  })
}
