import type { HttpTarget } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor } from '../monitors/find.ts'
import { authForUpdate, mergeHttpTarget } from '../monitors/http-options.ts'
import { updateMonitor } from '../monitors/update.ts'
import { domainOf } from './find.ts'
import { type DomainRecord, type UpdateDomainInput, updateDomainInput } from './schemas.ts'

/** Changes the given fields; check options merge into the stored ones (`null` removes one). */
export async function updateDomain({
  ctx,
  caller,
  input: body,
}: {
  ctx: CollectorContext
  caller: Caller
  input: UpdateDomainInput & { id: string }
}): Promise<DomainRecord> {
  const { id, ...fields } = body
  const input = updateDomainInput.parse(fields)
  const current = await findMonitor(ctx.sql, caller, 'domain', id)
  const auth = authForUpdate(current, input)
  const hasAuth = auth === undefined ? current.credentialsSet : auth !== null
  const target = mergeHttpTarget(current.target as HttpTarget, input, hasAuth)
  const monitor = await updateMonitor({
    ctx,
    caller,
    input: {
      kind: 'domain',
      id,
      changes: {
        target,
        ...(auth === undefined ? {} : { auth }),
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.isApi === undefined ? {} : { isApi: input.isApi }),
        ...(input.checkInterval === undefined ? {} : { checkInterval: input.checkInterval }),
        ...(input.timeout === undefined ? {} : { timeout: input.timeout }),
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
        ...(input.locations === undefined ? {} : { locations: input.locations }),
        ...(input.tags === undefined ? {} : { tags: input.tags }),
        ...(input.failureThreshold === undefined ? {} : { failureThreshold: input.failureThreshold }),
        ...(input.quorumPercent === undefined ? {} : { quorumPercent: input.quorumPercent }),
        ...(input.downAboveMs === undefined ? {} : { downAboveMs: input.downAboveMs }),
      },
    },
  })
  return domainOf(monitor)
}
