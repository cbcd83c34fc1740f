import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { type MaintenanceWindowRow, toWindowView, WINDOW_COLUMNS } from './find.ts'

export async function listMaintenanceWindows(ctx: CollectorContext, caller: Caller, requestedOrganization?: string) {
  const organizationId = organizationScope(caller, requestedOrganization)
  const { rows } = await ctx.sql.query<MaintenanceWindowRow>(
    `SELECT ${WINDOW_COLUMNS} FROM monitoring.maintenance_windows WHERE organization_id = $1 ORDER BY starts_at DESC, id`,
    [organizationId],
  )
  return rows.map((row) => toWindowView(row))
}
