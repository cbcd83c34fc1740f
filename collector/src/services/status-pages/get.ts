import type { Caller, CollectorContext } from '../../context.ts'
import { findStatusPage, toStatusPageDetail } from './find.ts'
import type { StatusPageDetail } from './schemas.ts'

export async function getStatusPage(ctx: CollectorContext, caller: Caller, id: string): Promise<StatusPageDetail> {
  return toStatusPageDetail(ctx.sql, await findStatusPage(ctx.sql, caller, id))
}
