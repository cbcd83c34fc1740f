import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { type GroupFilter, groupsFiltered, groupsOf } from '../groups/filter.ts'
import { listMonitors } from '../monitors/list.ts'
import { serviceOf } from './find.ts'
import type { ServiceView } from './schemas.ts'
import { viewServices } from './view.ts'

export async function listServices(
  ctx: CollectorContext,
  caller: Caller,
  organizationId?: string,
  tags: string[] = [],
  group: GroupFilter = {},
): Promise<ServiceView[]> {
  const groupIds = await groupsFiltered(ctx.sql, organizationScope(caller, organizationId), group)
  const monitors = await listMonitors({ ctx, caller, input: { kind: 'service', organizationId, tags, groupIds } })
  const [views, groups] = await Promise.all([
    viewServices(ctx.sql, monitors.map(serviceOf)),
    groupsOf(
      ctx.sql,
      'monitors',
      monitors.map((monitor) => monitor.id),
    ),
  ])
  return views.map((view) => ({ ...view, groupId: groups.get(view.id) ?? null }))
}
