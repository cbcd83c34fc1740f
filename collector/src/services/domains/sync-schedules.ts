import { encodeMonitorConfig } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { findAllServices } from '../services/find.ts'
import { serviceMonitorConfig } from '../services/target.ts'
import { findAllDomains } from './find.ts'
import { scheduleDomain } from './schedule.ts'

/**
 * PostgreSQL is the source of truth for schedules: at start, every domain and service is published
 * again and keys without one are removed, which mends a write that reached one store but not the other.
 */
export async function syncSchedules(ctx: CollectorContext): Promise<number> {
  const domains = await findAllDomains(ctx.sql)
  const services = await findAllServices(ctx.sql)
  const known = new Set([...domains.map((domain) => domain.id), ...services.map((service) => service.id)])
  for (const domain of domains) await scheduleDomain(ctx.monitors, domain)
  for (const service of services) {
    await ctx.monitors.put(service.id, encodeMonitorConfig(serviceMonitorConfig(service)))
  }
  for (const key of await ctx.monitors.keys()) {
    if (!known.has(key)) await ctx.monitors.delete(key)
  }
  return known.size
}
