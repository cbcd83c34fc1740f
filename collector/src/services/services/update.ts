import { encodeMonitorConfig, notFound } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { timingAfterUpdate } from '../monitor-timing.ts'
import { enforcePlan } from '../plans/enforce.ts'
import { findService, SERVICE_COLUMNS, type ServiceRow, toServiceRecord } from './find.ts'
import type { ServiceRecord, UpdateServiceInput } from './schemas.ts'
import { serviceMonitorConfig, serviceTarget } from './target.ts'

/** Changes the given fields; the new schedule is published so probes follow within seconds. */
export async function updateService(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
  input: UpdateServiceInput,
): Promise<ServiceRecord> {
  const current = await findService(ctx.sql, caller, id)
  const protocol = input.protocol ?? current.protocol
  const config = input.protocolConfig ?? current.protocolConfig
  serviceTarget(protocol, config)
  const { checkInterval, timeout } = timingAfterUpdate(current, input)
  const monitor = { organizationId: current.organizationId, adds: false, checkInterval: input.checkInterval }
  const { rows } = await enforcePlan(ctx, monitor, (tx) =>
    tx.query<ServiceRow>(
      `UPDATE monitoring.services
        SET name = $3, protocol = $4, host = $5, port = $6, path = $7, check_interval = $8,
            timeout_seconds = $9, enabled = $10, updated_at = now()
      WHERE id = $1 AND organization_id = $2
      RETURNING ${SERVICE_COLUMNS}`,
      [
        id,
        current.organizationId,
        input.name ?? current.name,
        protocol,
        config.host,
        config.port ?? null,
        config.path ?? null,
        checkInterval,
        timeout,
        input.enabled ?? current.enabled,
      ],
    ),
  )
  if (!rows[0]) throw notFound('Service')
  const service = toServiceRecord(rows[0])
  await ctx.monitors.put(service.id, encodeMonitorConfig(serviceMonitorConfig(service)))
  return service
}
