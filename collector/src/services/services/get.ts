import type { Caller, CollectorContext } from '../../context.ts'
import { informativeDependencyDetailOf } from '../dependencies/detail.ts'
import { groupsOf } from '../groups/filter.ts'
import { findService } from './find.ts'
import type { ServiceView } from './schemas.ts'
import { viewServices } from './view.ts'

export async function getService(ctx: CollectorContext, caller: Caller, id: string): Promise<ServiceView> {
  const [view] = await viewServices(ctx.sql, [await findService(ctx.sql, caller, id)])
  const [dependencies, groups] = await Promise.all([
    informativeDependencyDetailOf(ctx.sql, id),
    groupsOf(ctx.sql, 'monitors', [id]),
  ])
  return { ...view!, ...dependencies, groupId: groups.get(id) ?? null }
}
