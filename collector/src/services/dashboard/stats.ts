import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { organizationDomainStats } from '../domains/organization-stats.ts'

export const dashboardStats = z.object({
  domains: z.object({
    total: z.number().int(),
    up: z.number().int(),
    down: z.number().int(),
    uptime: z.number().meta({ description: 'average 24-hour uptime of the domains, percent' }),
  }),
  devices: z.object({ total: z.number().int(), online: z.number().int(), offline: z.number().int() }),
  services: z.object({ total: z.number().int(), up: z.number().int(), down: z.number().int() }),
  incidents: z.object({ active: z.number().int(), critical: z.number().int() }),
})
export type DashboardStats = z.infer<typeof dashboardStats>

/**
 * The spec's dashboard summary, read from state tables (monitor state, device state, open
 * incidents) and the per-hour rollups: a handful of small queries, never raw results.
 */
export async function readDashboardStats(
  ctx: CollectorContext,
  caller: Caller,
  organization?: string,
): Promise<DashboardStats> {
  const organizationId = organizationScope(caller, organization)
  const [domains, services, devices, incidents] = await Promise.all([
    organizationDomainStats(ctx, caller, organizationId),
    ctx.sql.query<{ total: number; up: number; down: number }>(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE s.status = 'up'))::int AS up,
              (count(*) FILTER (WHERE s.status = 'down'))::int AS down
         FROM monitoring.monitors m LEFT JOIN monitoring.monitor_state s ON s.monitor_id = m.id
        WHERE m.organization_id = $1 AND m.kind = 'service'`,
      [organizationId],
    ),
    ctx.sql.query<{ total: number; online: number }>(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE is_online))::int AS online
         FROM monitoring.devices WHERE organization_id = $1`,
      [organizationId],
    ),
    countActiveIncidents(ctx, organizationId),
  ])
  const device = devices.rows[0] ?? { total: 0, online: 0 }
  return {
    domains: { total: domains.total, up: domains.up, down: domains.down, uptime: domains.avgUptime },
    devices: { total: device.total, online: device.online, offline: device.total - device.online },
    services: services.rows[0] ?? { total: 0, up: 0, down: 0 },
    incidents,
  }
}

/** Open incidents of the incident engine (issue 12); without its table there are none. */
export async function countActiveIncidents(ctx: CollectorContext, organizationId: string) {
  const { rows } = await ctx.sql.query<{ present: boolean }>(
    "SELECT to_regclass('monitoring.incidents') IS NOT NULL AS present",
  )
  if (!rows[0]?.present) return { active: 0, critical: 0 }
  const counted = await ctx.sql.query<{ active: number; critical: number }>(
    `SELECT count(*)::int AS active, (count(*) FILTER (WHERE severity = 'critical'))::int AS critical
       FROM monitoring.incidents WHERE organization_id = $1 AND resolved_at IS NULL`,
    [organizationId],
  )
  return counted.rows[0] ?? { active: 0, critical: 0 }
}
