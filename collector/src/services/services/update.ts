import type { Caller, CollectorContext } from '../../context.ts'
import { openSecrets } from '../monitors/credentials.ts'
import { findMonitor, findSealedCredentials } from '../monitors/find.ts'
import { authForUpdate } from '../monitors/http-options.ts'
import { isBuiltinProtocol, type MonitorChanges, type MonitorRecord } from '../monitors/schemas.ts'
import { updateMonitor } from '../monitors/update.ts'
import { serviceOf } from './find.ts'
import {
  assertProtocolConfig,
  type ProtocolConfig,
  type ServiceConfig,
  type ServiceProtocol,
  type ServiceRecord,
  type UpdateServiceInput,
  updateServiceInput,
} from './schemas.ts'
import { serviceSecrets, serviceTarget } from './target.ts'

/** The stored configuration without what reads add (`credentialsSet`, `secretsSet`). */
function storedConfig(service: ServiceRecord): ServiceConfig {
  const {
    credentialsSet: _credentials,
    secretsSet: _secrets,
    ...config
  } = service.protocolConfig as Record<string, unknown>
  return config as ServiceConfig
}

/**
 * What becomes of the sealed credentials column: HTTP credentials through authType, a registry
 * protocol's secrets field by field (a field not given keeps its stored value), and nothing of
 * another protocol carried over when the protocol changes.
 */
async function credentialChanges(
  ctx: CollectorContext,
  current: MonitorRecord,
  change: { from: ServiceProtocol; to: ServiceProtocol; config: ServiceConfig; given: ServiceConfig | undefined },
): Promise<Pick<MonitorChanges, 'auth' | 'secrets'>> {
  const sameProtocol = change.from === change.to
  if (isBuiltinProtocol(change.to)) {
    const given = change.given as Partial<ProtocolConfig> | undefined
    const http = change.config as Partial<ProtocolConfig>
    const auth = given
      ? authForUpdate(current, { authType: http.authType ?? 'none', credentials: given.credentials }, 'protocolConfig.')
      : undefined
    if (auth === undefined && !isBuiltinProtocol(change.from) && current.credentialsSet) return { auth: null }
    return auth === undefined ? {} : { auth }
  }
  const given = change.given ? serviceSecrets(change.to, change.given) : undefined
  if (!sameProtocol) return given ? { secrets: given } : current.credentialsSet ? { secrets: null } : {}
  if (!given) return {}
  const sealed = current.credentialsSet ? await findSealedCredentials(ctx.sql, current.id) : null
  return { secrets: { ...(sealed ? openSecrets(ctx.credentialKey, sealed) : {}), ...given } }
}

/** Changes the given fields; a new protocolConfig replaces the stored one as a whole, secrets apart. */
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
  const config = assertProtocolConfig(protocol, input.protocolConfig ?? storedConfig(currentService))
  const credentials = await credentialChanges(ctx, current, {
    from: currentService.protocol,
    to: protocol,
    config,
    given: input.protocolConfig,
  })
  const http = isBuiltinProtocol(protocol) ? (config as Partial<ProtocolConfig>) : {}
  const monitor = await updateMonitor({
    ctx,
    caller,
    input: {
      kind: 'service',
      id,
      changes: {
        protocol,
        target: serviceTarget(protocol, config as ServiceConfig & { host: string }),
        ...credentials,
        ...(input.protocolConfig ? { isApi: http.isApi ?? false } : {}),
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.checkInterval === undefined ? {} : { checkInterval: input.checkInterval }),
        ...(input.timeout === undefined ? {} : { timeout: input.timeout }),
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
        ...(input.locations === undefined ? {} : { locations: input.locations }),
        ...(input.tags === undefined ? {} : { tags: input.tags }),
        ...(input.failureThreshold === undefined ? {} : { failureThreshold: input.failureThreshold }),
        ...(input.quorumPercent === undefined ? {} : { quorumPercent: input.quorumPercent }),
        ...(input.degradedAboveMs === undefined ? {} : { degradedAboveMs: input.degradedAboveMs }),
        ...(input.downAboveMs === undefined ? {} : { downAboveMs: input.downAboveMs }),
      },
    },
  })
  return serviceOf(monitor)
}
