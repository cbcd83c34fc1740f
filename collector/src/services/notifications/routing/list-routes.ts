import type { Caller, CollectorContext } from '../../../context.ts'
import { organizationScope } from '../../access/organization.ts'
import { ROUTE_COLUMNS, type RouteRow } from './match.ts'
import { toRouteView } from './save-route.ts'

/** The organization's routes in the order they are tried, the default route last. */
export async function listRoutes({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { organizationId?: string | undefined }
}) {
  const { rows } = await ctx.sql.query<RouteRow>(
    `SELECT ${ROUTE_COLUMNS} FROM monitoring.notification_routes WHERE organization_id = $1
      ORDER BY is_default, position, id`,
    [organizationScope(caller, input.organizationId)],
  )
  return rows.map(toRouteView)
}
