import type { Caller, CollectorContext } from '../../context.ts'
import { createMonitor } from '../monitors/create.ts'
import { authForCreate } from '../monitors/http-options.ts'
import { isBuiltinProtocol, type MonitorInput } from '../monitors/schemas.ts'
import { serviceOf } from './find.ts'
import {
  type CreateServiceInput,
  createServiceInput,
  type ProtocolConfig,
  type ServiceConfig,
  type ServiceRecord,
} from './schemas.ts'
import { serviceSecrets, serviceTarget } from './target.ts'

/** A service body as the monitor layer's input: the protocol's check with its options. */
export function serviceMonitorInput(body: unknown, organizationId?: string): MonitorInput {
  const input = createServiceInput.parse(body)
  const config: ServiceConfig = input.protocolConfig
  const http = isBuiltinProtocol(input.protocol) ? (config as Partial<ProtocolConfig>) : {}
  const auth = authForCreate(http.authType ?? 'none', http.credentials, 'protocolConfig.')
  const secrets = serviceSecrets(input.protocol, config)
  return {
    kind: 'service',
    ...(organizationId ? { organizationId } : {}),
    name: input.name,
    protocol: input.protocol,
    target: serviceTarget(input.protocol, input.protocolConfig),
    ...(auth ? { auth } : {}),
    ...(secrets ? { secrets } : {}),
    isApi: http.isApi ?? false,
    checkInterval: input.checkInterval,
    timeout: input.timeout,
    enabled: input.enabled,
    ...(input.locations ? { locations: input.locations } : {}),
    tags: input.tags,
    failureThreshold: input.failureThreshold,
    quorumPercent: input.quorumPercent,
    ...(input.degradedAboveMs === undefined ? {} : { degradedAboveMs: input.degradedAboveMs }),
    ...(input.downAboveMs === undefined ? {} : { downAboveMs: input.downAboveMs }),
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
