import type { Caller, CollectorContext } from '../../context.ts'
import { listMonitors } from '../monitors/list.ts'
import { serviceOf } from './find.ts'
import type { ServiceView } from './schemas.ts'
import { viewServices } from './view.ts'

export async function listServices(
  ctx: CollectorContext,
  caller: Caller,
  organizationId?: string,
  tags: string[] = [],
): Promise<ServiceView[]> {
  const monitors = await listMonitors({ ctx, caller, input: { kind: 'service', organizationId, tags } })
  return viewServices(ctx.sql, monitors.map(serviceOf))
}
