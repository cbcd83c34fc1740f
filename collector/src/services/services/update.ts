import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor } from '../monitors/find.ts'
import { authForUpdate } from '../monitors/http-options.ts'
import { updateMonitor } from '../monitors/update.ts'
import { serviceOf } from './find.ts'
import { assertProtocolConfig, type ServiceRecord, type UpdateServiceInput, updateServiceInput } from './schemas.ts'
import { serviceTarget } from './target.ts'

/** Changes the given fields; a new protocolConfig replaces the stored one as a whole. */
export async function updateService({
  ctx,
  caller,
  input: body,
}: {
  ctx: CollectorContext
  caller: Caller
  input: UpdateServiceInput & { id: string }
}): Promise<ServiceRecord> {
  const { id, ...fields } = body
  const input = updateServiceInput.parse(fields)
  const current = await findMonitor(ctx.sql, caller, 'service', id)
  const currentService = serviceOf(current)
  const protocol = input.protocol ?? currentService.protocol
  const { credentialsSet: _set, ...stored } = currentService.protocolConfig
  const config = input.protocolConfig ?? stored
  assertProtocolConfig(protocol, config)
  const auth = input.protocolConfig
    ? authForUpdate(
        current,
        { authType: config.authType ?? 'none', credentials: input.protocolConfig.credentials },
        'protocolConfig.',
      )
    : undefined
  const monitor = await updateMonitor({
    ctx,
    caller,
    input: {
      kind: 'service',
      id,
      changes: {
        protocol,
        target: serviceTarget(protocol, config),
        ...(auth === undefined ? {} : { auth }),
        ...(input.protocolConfig ? { isApi: input.protocolConfig.isApi ?? false } : {}),
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.checkInterval === undefined ? {} : { checkInterval: input.checkInterval }),
        ...(input.timeout === undefined ? {} : { timeout: input.timeout }),
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
        ...(input.locations === undefined ? {} : { locations: input.locations }),
        ...(input.failureThreshold === undefined ? {} : { failureThreshold: input.failureThreshold }),
        ...(input.quorumPercent === undefined ? {} : { quorumPercent: input.quorumPercent }),
      },
    },
  })
  return serviceOf(monitor)
}
