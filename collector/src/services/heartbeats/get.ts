import type { Caller, CollectorContext } from '../../context.ts'
import { dependencyDetailOf } from '../dependencies/detail.ts'
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
  return { ...view!, ...(await dependencyDetailOf(ctx.sql, view!.id)) }
}
