import type { Caller, CollectorContext } from '../../context.ts'
import { findMaintenanceWindow } from './find.ts'

export async function deleteMaintenanceWindow(ctx: CollectorContext, caller: Caller, id: string): Promise<void> {
  const window = await findMaintenanceWindow(ctx.sql, caller, id)
  await ctx.sql.query('DELETE FROM monitoring.maintenance_windows WHERE id = $1 AND organization_id = $2', [
    window.id,
    window.organization_id,
  ])
}
