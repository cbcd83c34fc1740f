import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { type GroupFilter, groupsFiltered, groupsOf } from '../groups/filter.ts'
import { listMonitors } from '../monitors/list.ts'
import { findBrowserLocations } from './browser-locations.ts'
import type { SyntheticView } from './schemas.ts'
import { syntheticOf } from './view.ts'

/** The organization's synthetic checks carrying the tags named, in the groups named, newest first. */
export async function listSynthetics({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { organizationId?: string | undefined; tags?: string[] | undefined } & GroupFilter
}): Promise<SyntheticView[]> {
  const groupIds = await groupsFiltered(ctx.sql, organizationScope(caller, input.organizationId), input)
  const monitors = await listMonitors({
    ctx,
    caller,
    input: { kind: 'synthetic', organizationId: input.organizationId, tags: input.tags ?? [], groupIds },
  })
  const groups = await groupsOf(
    ctx.sql,
    'monitors',
    monitors.map((monitor) => monitor.id),
  )
  const browserAt = await findBrowserLocations(ctx)
  return monitors.map((monitor) => syntheticOf(monitor, groups.get(monitor.id) ?? null, browserAt))
}
