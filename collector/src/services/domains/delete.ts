import type { Caller, CollectorContext } from '../../context.ts'
import { deleteMonitorState } from '../monitor-state/delete.ts'
import { findDomain } from './find.ts'

/**
 * Removes the domain and its schedule; probes drop the monitor as soon as they see the KV delete.
 * Stored results stay in ClickHouse until their retention ends.
 */
export async function deleteDomain(ctx: CollectorContext, caller: Caller, id: string): Promise<void> {
  const domain = await findDomain(ctx.sql, caller, id)
  await ctx.sql.transaction(async (tx) => {
    await tx.query('DELETE FROM monitoring.domains WHERE id = $1 AND organization_id = $2', [id, domain.organizationId])
    await deleteMonitorState(tx, id)
  })
  await ctx.monitors.delete(id)
}
