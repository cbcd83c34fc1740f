import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor } from '../monitors/find.ts'
import { monitorLocations } from '../monitors/locations-view.ts'
import { rangeSeconds, type TimeRange } from './schemas.ts'

/** Newest first within each location, at most `limit` points per location (README "Locations"). */
export async function domainLocations(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
  query: { range: TimeRange; limit: number },
) {
  const monitor = await findMonitor(ctx.sql, caller, 'domain', id)
  return monitorLocations(ctx, monitor, { windowSeconds: rangeSeconds[query.range], limit: query.limit })
}
