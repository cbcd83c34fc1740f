import type { Caller, CollectorContext } from '../../context.ts'
import { createMonitor } from '../monitors/create.ts'
import { authForCreate, pickHttpOptions } from '../monitors/http-options.ts'
import type { MonitorInput } from '../monitors/schemas.ts'
import { domainOf } from './find.ts'
import { type CreateDomainInput, createDomainInput, type DomainRecord } from './schemas.ts'

/** A domain body as the monitor layer's input: an HTTP check of `url` with its options. */
export function domainMonitorInput(body: unknown, organization?: string): MonitorInput {
  const input = createDomainInput.parse(body)
  const auth = authForCreate(input.authType, input.credentials)
  return {
    kind: 'domain',
    ...(organization ? { organizationId: organization } : {}),
    name: input.name ?? new URL(input.url).hostname,
    target: { kind: 'http', url: input.url, ...pickHttpOptions(input), method: input.method },
    ...(auth ? { auth } : {}),
    isApi: input.isApi,
    checkInterval: input.checkInterval,
    timeout: input.timeout,
    enabled: input.enabled,
    ...(input.locations ? { locations: input.locations } : {}),
    tags: input.tags,
    failureThreshold: input.failureThreshold,
    quorumPercent: input.quorumPercent,
    ...(input.downAboveMs === undefined ? {} : { downAboveMs: input.downAboveMs }),
  }
}

/** Creates a domain: the spec's shape over the monitor layer. */
export async function createDomain({
  ctx,
  caller,
  input: body,
}: {
  ctx: CollectorContext
  caller: Caller
  input: CreateDomainInput & { organization?: string | undefined }
}): Promise<DomainRecord> {
  const { organization, ...fields } = body
  const monitor = await createMonitor({ ctx, caller, input: domainMonitorInput(fields, organization) })
  return domainOf(monitor)
}
