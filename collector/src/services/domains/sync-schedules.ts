import type { CollectorContext } from '../../context.ts'
import { findAllDomains } from './find.ts'
import { scheduleDomain } from './schedule.ts'

/**
 * PostgreSQL is the source of truth for schedules: at start, every domain is published again and
 * keys without a domain are removed, which mends a write that reached one store but not the other.
 */
export async function syncSchedules(ctx: CollectorContext): Promise<number> {
  const domains = await findAllDomains(ctx.sql)
  const known = new Set(domains.map((domain) => domain.id))
  for (const domain of domains) await scheduleDomain(ctx.monitors, domain)
  for (const key of await ctx.monitors.keys()) {
    if (!known.has(key)) await ctx.monitors.delete(key)
  }
  return domains.length
}
