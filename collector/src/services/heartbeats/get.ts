import type { Caller, CollectorContext } from '../../context.ts'
import { dependencyDetailOf } from '../dependencies/detail.ts'
import { groupsOf } from '../groups/filter.ts'
import { findHeartbeat } from './find.ts'
import type { HeartbeatView } from './schemas.ts'
import { viewHeartbeats } from './view.ts'

export async function getHeartbeat({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}): Promise<HeartbeatView> {
  const [view] = await viewHeartbeats(ctx, [await findHeartbeat(ctx.sql, ctx.credentialKey, caller, input.id)])
  const [dependencies, groups] = await Promise.all([
    dependencyDetailOf(ctx.sql, view!.id),
    groupsOf(ctx.sql, 'monitors', [view!.id]),
  ])
  return { ...view!, ...dependencies, groupId: groups.get(view!.id) ?? null }
}
