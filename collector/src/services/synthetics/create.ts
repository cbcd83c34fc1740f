import type { Caller, CollectorContext } from '../../context.ts'
import { groupsOf } from '../groups/filter.ts'
import { createMonitor } from '../monitors/create.ts'
import { type CreateSyntheticInput, createSyntheticInput, type SyntheticView } from './schemas.ts'
import { syntheticOf } from './view.ts'

/** Creates a synthetic check on the monitor layer: its steps are the probe's flow target, its secrets sealed. */
export async function createSynthetic({
  ctx,
  caller,
  input: body,
}: {
  ctx: CollectorContext
  caller: Caller
  input: CreateSyntheticInput & { organizationId?: string | undefined }
}): Promise<SyntheticView> {
  const { organizationId, ...fields } = body
  const input = createSyntheticInput.parse(fields)
  const monitor = await createMonitor({
    ctx,
    caller,
    input: {
      kind: 'synthetic',
      ...(organizationId ? { organizationId } : {}),
      name: input.name,
      target: { kind: 'flow', steps: input.steps },
      ...(input.secrets ? { secrets: input.secrets } : {}),
      checkInterval: input.checkInterval,
      ...(input.timeout === undefined ? {} : { timeout: input.timeout }),
      enabled: input.enabled,
      ...(input.locations ? { locations: input.locations } : {}),
      tags: input.tags,
      failureThreshold: input.failureThreshold,
      quorumPercent: input.quorumPercent,
    },
  })
  const groups = await groupsOf(ctx.sql, 'monitors', [monitor.id])
  return syntheticOf(monitor, groups.get(monitor.id) ?? null)
}
