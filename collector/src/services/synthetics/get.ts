import type { Caller, CollectorContext } from '../../context.ts'
import { groupsOf } from '../groups/filter.ts'
import { findMonitor } from '../monitors/find.ts'
import { findBrowserLocations } from './browser-locations.ts'
import type { SyntheticView } from './schemas.ts'
import { syntheticOf } from './view.ts'

export async function getSynthetic({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}): Promise<SyntheticView> {
  const monitor = await findMonitor(ctx.sql, caller, 'synthetic', input.id)
  const groups = await groupsOf(ctx.sql, 'monitors', [monitor.id])
  return syntheticOf(monitor, groups.get(monitor.id) ?? null, await findBrowserLocations(ctx))
}
