import { encodeMonitorConfig, newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { enforcePlan } from '../plans/enforce.ts'
import { SERVICE_COLUMNS, type ServiceRow, toServiceRecord } from './find.ts'
import { type CreateServiceInput, createServiceInput, type ServiceRecord } from './schemas.ts'
import { serviceMonitorConfig, serviceTarget } from './target.ts'

/** Stores the service and publishes its schedule, like a domain (see createDomain). */
export async function createService(
  ctx: CollectorContext,
  caller: Caller,
  body: CreateServiceInput,
  organization?: string,
): Promise<ServiceRecord> {
  const input = createServiceInput.parse(body)
  serviceTarget(input.protocol, input.protocolConfig)
  const organizationId = organizationScope(caller, organization)
  const locations = ctx.env.GUARD_DEFAULT_LOCATIONS
  const monitor = { organizationId, adds: true, checkInterval: input.checkInterval, locations }
  const { rows } = await enforcePlan(ctx, monitor, (tx) =>
    tx.query<ServiceRow>(
      `INSERT INTO monitoring.services
       (id, organization_id, name, protocol, host, port, path, check_interval, timeout_seconds, enabled, locations)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING ${SERVICE_COLUMNS}`,
      [
        newId(),
        organizationId,
        input.name,
        input.protocol,
        input.protocolConfig.host,
        input.protocolConfig.port ?? null,
        input.protocolConfig.path ?? null,
        input.checkInterval,
        input.timeout,
        input.enabled,
        locations,
      ],
    ),
  )
  const service = toServiceRecord(rows[0]!)
  await ctx.monitors.put(service.id, encodeMonitorConfig(serviceMonitorConfig(service)))
  return service
}
