import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { countActiveDeviceIncidents } from './active-incidents.ts'

export async function deviceStats(ctx: CollectorContext, caller: Caller, organizationId?: string) {
  const organization = organizationScope(caller, organizationId)
  const { rows } = await ctx.sql.query<Record<'total' | 'online' | 'healthy' | 'warning' | 'critical', number>>(
    `SELECT count(*)::int AS total,
            (count(*) FILTER (WHERE is_online))::int AS online,
            (count(*) FILTER (WHERE health_status = 'healthy'))::int AS healthy,
            (count(*) FILTER (WHERE health_status = 'warning'))::int AS warning,
            (count(*) FILTER (WHERE health_status = 'critical'))::int AS critical
       FROM monitoring.devices WHERE organization_id = $1`,
    [organization],
  )
  const counts = rows[0]!
  return {
    ...counts,
    offline: counts.total - counts.online,
    activeIncidents: await countActiveDeviceIncidents(ctx.sql, organization),
  }
}
