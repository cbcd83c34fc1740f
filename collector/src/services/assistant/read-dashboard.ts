import type { CollectorContext } from '../../context.ts'
import { requirePermission } from '../access/require.ts'
import { type DashboardStats, readDashboardStats } from '../dashboard/stats.ts'
import { type Audience, weightedMean } from './audience.ts'
import { isWorking, latestUptime, readPublicView } from './public-view.ts'

/**
 * The dashboard counts of the audience: summed over the member's organizations (uptime weighted
 * by each organization's domains), or counted from the public status pages.
 */
export async function readAssistantDashboard({
  ctx,
  audience,
}: {
  ctx: CollectorContext
  audience: Audience
}): Promise<DashboardStats> {
  if (audience.kind === 'public') return publicDashboard(ctx, audience.organizationId)
  const parts = await Promise.all(
    audience.callers.map((caller) => {
      requirePermission(caller, 'domains:read', 'services:read', 'devices:read')
      return readDashboardStats(ctx, caller, caller.organizationId)
    }),
  )
  const sum = (pick: (stats: DashboardStats) => number) => parts.reduce((total, stats) => total + pick(stats), 0)
  return {
    domains: {
      total: sum((stats) => stats.domains.total),
      up: sum((stats) => stats.domains.up),
      down: sum((stats) => stats.domains.down),
      uptime: weightedMean(parts.map((stats) => [stats.domains.uptime, stats.domains.total])),
    },
    devices: {
      total: sum((stats) => stats.devices.total),
      online: sum((stats) => stats.devices.online),
      offline: sum((stats) => stats.devices.offline),
    },
    services: {
      total: sum((stats) => stats.services.total),
      up: sum((stats) => stats.services.up),
      down: sum((stats) => stats.services.down),
    },
    heartbeats: {
      total: sum((stats) => stats.heartbeats.total),
      up: sum((stats) => stats.heartbeats.up),
      down: sum((stats) => stats.heartbeats.down),
    },
    incidents: { active: sum((stats) => stats.incidents.active), critical: sum((stats) => stats.incidents.critical) },
    groups: {
      total: sum((stats) => stats.groups?.total ?? 0),
      up: sum((stats) => stats.groups?.up ?? 0),
      down: sum((stats) => stats.groups?.down ?? 0),
      degraded: sum((stats) => stats.groups?.degraded ?? 0),
      unknown: sum((stats) => stats.groups?.unknown ?? 0),
    },
  }
}

async function publicDashboard(ctx: CollectorContext, organizationId: string | undefined): Promise<DashboardStats> {
  const view = await readPublicView(ctx, organizationId)
  const of = (kind: string) => view.components.filter((component) => component.kind === kind)
  const counts = (kind: string) => {
    const components = of(kind)
    const up = components.filter((component) => isWorking(component.status)).length
    return { total: components.length, up, down: components.filter((c) => c.status === 'down').length }
  }
  const domains = counts('domain')
  const services = counts('service')
  const heartbeats = counts('heartbeat')
  const devices = counts('device')
  const uptimes = of('domain')
    .map(latestUptime)
    .filter((uptime): uptime is number => uptime !== null)
  const active = view.incidents.filter((incident) => incident.active)
  return {
    domains: { ...domains, uptime: weightedMean(uptimes.map((uptime) => [uptime, 1])) },
    devices: { total: devices.total, online: devices.up, offline: devices.total - devices.up },
    services,
    heartbeats,
    incidents: {
      active: active.length,
      critical: active.filter((incident) => incident.severity === 'critical').length,
    },
  }
}
