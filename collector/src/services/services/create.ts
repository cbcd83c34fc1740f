import type { Caller, CollectorContext } from '../../context.ts'
import { createMonitor } from '../monitors/create.ts'
import { authForCreate } from '../monitors/http-options.ts'
import type { MonitorInput } from '../monitors/schemas.ts'
import { serviceOf } from './find.ts'
import { type CreateServiceInput, createServiceInput, type ServiceRecord } from './schemas.ts'
import { serviceTarget } from './target.ts'

/** A service body as the monitor layer's input: the protocol's check with its options. */
export function serviceMonitorInput(body: unknown, organizationId?: string): MonitorInput {
  const input = createServiceInput.parse(body)
  const config = input.protocolConfig
  const auth = authForCreate(config.authType ?? 'none', config.credentials, 'protocolConfig.')
  return {
    kind: 'service',
    ...(organizationId ? { organizationId } : {}),
    name: input.name,
    protocol: input.protocol,
    target: serviceTarget(input.protocol, config),
    ...(auth ? { auth } : {}),
    isApi: config.isApi ?? false,
    checkInterval: input.checkInterval,
    timeout: input.timeout,
    enabled: input.enabled,
    ...(input.locations ? { locations: input.locations } : {}),
    failureThreshold: input.failureThreshold,
    quorumPercent: input.quorumPercent,
  }
}

/** Creates a service: the spec's shape over the monitor layer. */
export async function createService({
  ctx,
  caller,
  input: body,
}: {
  ctx: CollectorContext
  caller: Caller
  input: CreateServiceInput & { organizationId?: string | undefined }
}): Promise<ServiceRecord> {
  const { organizationId, ...fields } = body
  const monitor = await createMonitor({ ctx, caller, input: serviceMonitorInput(fields, organizationId) })
  return serviceOf(monitor)
}
