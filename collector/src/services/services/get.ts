import type { Caller, CollectorContext } from '../../context.ts'
import { informativeDependencyDetailOf } from '../dependencies/detail.ts'
import { findService } from './find.ts'
import type { ServiceView } from './schemas.ts'
import { viewServices } from './view.ts'

export async function getService(ctx: CollectorContext, caller: Caller, id: string): Promise<ServiceView> {
  const [view] = await viewServices(ctx.sql, [await findService(ctx.sql, caller, id)])
  return { ...view!, ...(await informativeDependencyDetailOf(ctx.sql, id)) }
}
