import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { groupsOf } from '../groups/filter.ts'
import { createMonitor } from '../monitors/create.ts'
import { enforceBrowserInterval } from '../plans/enforce.ts'
import { findBrowserLocations } from './browser-locations.ts'
import { type CreateSyntheticInput, createSyntheticInput, type SyntheticView } from './schemas.ts'
import { syntheticOf } from './view.ts'

/**
 * Creates a synthetic check on the monitor layer: an api check's steps are the probe's flow target,
 * a browser check's script its browser target (its interval held to the plan's browser minimum);
 * secrets sealed.
 */
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
  if (input.type === 'browser') {
    await enforceBrowserInterval(ctx, organizationScope(caller, organizationId), input.checkInterval)
  }
  const monitor = await createMonitor({
    ctx,
    caller,
    input: {
      kind: 'synthetic',
      ...(organizationId ? { organizationId } : {}),
      name: input.name,
      target:
        input.type === 'browser'
          ? {
              kind: 'browser',
              script: input.script ?? '',
              ...(input.screenshotOnSuccess ? { screenshotOnSuccess: true } : {}),
            }
          : { kind: 'flow', steps: input.steps ?? [] },
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
  return syntheticOf(monitor, groups.get(monitor.id) ?? null, await findBrowserLocations(ctx))
}
