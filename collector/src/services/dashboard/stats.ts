import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { organizationDomainStats } from '../domains/organization-stats.ts'
import { countGroupsByState } from '../groups/counts.ts'
import { tagCondition } from '../tags/match.ts'

export const dashboardStats = z.object({
  domains: z.object({
    total: z.number().int(),
    up: z.number().int(),
    down: z.number().int(),
    uptime: z
      .number()
      .nullable()
      .meta({ description: 'average 24-hour uptime of the domains, percent; null while none has a check' }),
  }),
  devices: z.object({ total: z.number().int(), online: z.number().int(), offline: z.number().int() }),
  services: z.object({ total: z.number().int(), up: z.number().int(), down: z.number().int() }),
  heartbeats: z.object({ total: z.number().int(), up: z.number().int(), down: z.number().int() }),
  incidents: z.object({ active: z.number().int(), critical: z.number().int() }),
  groups: z
    .object({
      total: z.number().int(),
      up: z.number().int(),
      down: z.number().int(),
      degraded: z.number().int(),
      unknown: z.number().int(),
    })
    .optional()
    .meta({
      description:
        'Groups by the state their rule derives from their members (README "Groups"); absent from public answers',
    }),
})
export type DashboardStats = z.infer<typeof dashboardStats>

/**
 * The spec's dashboard summary, read from state tables (monitor state, device state, open
 * incidents) and the 24-hour summary: two PostgreSQL statements, never ClickHouse. Tags narrow the
 * monitors and devices counted; incidents and groups stay the organization's.
 */
export async function readDashboardStats(
  ctx: CollectorContext,
  caller: Caller,
  organization?: string,
  tags: string[] = [],
): Promise<DashboardStats> {
  const organizationId = organizationScope(caller, organization)
  const monitorsTagged = tagCondition('m.tags', tags, 2)
  const devicesTagged = tagCondition('tags', tags, 2 + monitorsTagged.parameters.length)
  const [domains, others, groups] = await Promise.all([
    organizationDomainStats(ctx, caller, organizationId, tags),
    ctx.sql.query<{
      services: number
      services_up: number
      services_down: number
      heartbeats: number
      heartbeats_up: number
      heartbeats_down: number
      devices: number
      online: number
      active: number
      critical: number
    }>(
      `SELECT s.services, s.services_up, s.services_down, s.heartbeats, s.heartbeats_up, s.heartbeats_down,
              d.devices, d.online, i.active, i.critical
         FROM (SELECT (count(*) FILTER (WHERE m.kind = 'service'))::int AS services,
                      (count(*) FILTER (WHERE m.kind = 'service' AND st.status = 'up'))::int AS services_up,
                      (count(*) FILTER (WHERE m.kind = 'service' AND st.status = 'down'))::int AS services_down,
                      (count(*) FILTER (WHERE m.kind = 'heartbeat'))::int AS heartbeats,
                      (count(*) FILTER (WHERE m.kind = 'heartbeat' AND st.status = 'up'))::int AS heartbeats_up,
                      (count(*) FILTER (WHERE m.kind = 'heartbeat' AND st.status = 'down'))::int AS heartbeats_down
                 FROM monitoring.monitors m LEFT JOIN monitoring.monitor_state st ON st.monitor_id = m.id
                WHERE m.organization_id = $1 AND m.kind IN ('service', 'heartbeat') AND ${monitorsTagged.sql}) AS s,
              (SELECT count(*)::int AS devices, (count(*) FILTER (WHERE is_online))::int AS online
                 FROM monitoring.devices WHERE organization_id = $1 AND ${devicesTagged.sql}) AS d,
              (SELECT count(*)::int AS active, (count(*) FILTER (WHERE severity = 'critical'))::int AS critical
                 FROM monitoring.incidents WHERE organization_id = $1 AND resolved_at IS NULL) AS i`,
      [organizationId, ...monitorsTagged.parameters, ...devicesTagged.parameters],
    ),
    countGroupsByState(ctx.sql, organizationId),
  ])
  const row = others.rows[0] ?? {
    services: 0,
    services_up: 0,
    services_down: 0,
    heartbeats: 0,
    heartbeats_up: 0,
    heartbeats_down: 0,
    devices: 0,
    online: 0,
    active: 0,
    critical: 0,
  }
  return {
    domains: { total: domains.total, up: domains.up, down: domains.down, uptime: domains.avgUptime },
    devices: { total: row.devices, online: row.online, offline: row.devices - row.online },
    services: { total: row.services, up: row.services_up, down: row.services_down },
    heartbeats: { total: row.heartbeats, up: row.heartbeats_up, down: row.heartbeats_down },
    incidents: { active: row.active, critical: row.critical },
    groups,
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
