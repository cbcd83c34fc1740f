import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { listStatusPageRows, toStatusPageView } from './find.ts'
import type { StatusPageView } from './schemas.ts'

export async function listStatusPages(
  ctx: CollectorContext,
  caller: Caller,
  organization?: string,
): Promise<StatusPageView[]> {
  return (await listStatusPageRows(ctx.sql, organizationScope(caller, organization))).map(toStatusPageView)
}
