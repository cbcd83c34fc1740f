import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { SERVICE_COLUMNS, type ServiceRow, toServiceRecord } from './find.ts'
import type { ServiceView } from './schemas.ts'
import { viewServices } from './view.ts'

export async function listServices(
  ctx: CollectorContext,
  caller: Caller,
  organizationId?: string,
): Promise<ServiceView[]> {
  const { rows } = await ctx.sql.query<ServiceRow>(
    `SELECT ${SERVICE_COLUMNS} FROM monitoring.services WHERE organization_id = $1 ORDER BY created_at DESC, id DESC`,
    [organizationScope(caller, organizationId)],
  )
  return viewServices(ctx.sql, rows.map(toServiceRecord))
}
