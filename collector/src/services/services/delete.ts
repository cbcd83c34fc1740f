import type { Caller, CollectorContext } from '../../context.ts'
import { deleteMonitorState } from '../monitor-state/delete.ts'
import { findService } from './find.ts'

/** Removes the service and its schedule; its results stay until their retention ends. */
export async function deleteService(ctx: CollectorContext, caller: Caller, id: string): Promise<void> {
  const service = await findService(ctx.sql, caller, id)
  await ctx.sql.transaction(async (tx) => {
    await tx.query('DELETE FROM monitoring.services WHERE id = $1 AND organization_id = $2', [
      id,
      service.organizationId,
    ])
    await deleteMonitorState(tx, id)
  })
  await ctx.monitors.delete(id)
}
