import type { MonitorTarget } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { openSecrets } from '../monitors/credentials.ts'
import { findMonitor, findSealedCredentials } from '../monitors/find.ts'
import { updateMonitor } from '../monitors/update.ts'
import { enforceBrowserInterval } from '../plans/enforce.ts'
import { findBrowserLocations } from './browser-locations.ts'
import { createSyntheticInput, type SyntheticView, type UpdateSyntheticInput, updateSyntheticInput } from './schemas.ts'
import { syntheticOf } from './view.ts'

/** What the secrets become: the stored ones with the given ones set and the `null` ones removed. */
async function mergedSecrets(ctx: CollectorContext, id: string, given: Record<string, string | null>) {
  const sealed = await findSealedCredentials(ctx.sql, id)
  const merged: Record<string, unknown> = sealed ? openSecrets(ctx.credentialKey, sealed) : {}
  for (const [name, value] of Object.entries(given)) {
    if (value === null) delete merged[name]
    else merged[name] = value
  }
  return merged
}

/** The target after the change: steps replace an api check's, script and screenshot setting a browser check's. */
function changedTarget(current: MonitorTarget, changes: ReturnType<typeof updateSyntheticInput.parse>): MonitorTarget {
  if (current.kind === 'browser') {
    const screenshotOnSuccess = changes.screenshotOnSuccess ?? current.screenshotOnSuccess ?? false
    return {
      kind: 'browser',
      script: changes.script ?? current.script,
      ...(screenshotOnSuccess ? { screenshotOnSuccess: true } : {}),
    }
  }
  return { kind: 'flow', steps: changes.steps ?? (current.kind === 'flow' ? current.steps : []) }
}

/** Changes the given fields; the type stays, and steps or script and secrets must still agree, as on create. */
export async function updateSynthetic({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: UpdateSyntheticInput & { id: string }
}): Promise<SyntheticView> {
  const { id, ...fields } = input
  const changes = updateSyntheticInput.parse(fields)
  const current = await findMonitor(ctx.sql, caller, 'synthetic', id)
  const type = current.target.kind === 'browser' ? 'browser' : 'api'
  const secrets = changes.secrets ? await mergedSecrets(ctx, id, changes.secrets) : undefined
  const target = changedTarget(current.target, changes)
  const retargeted = changes.steps || changes.script !== undefined || changes.screenshotOnSuccess !== undefined
  if (retargeted || changes.secrets) {
    const known = secrets ?? (current.credentialsSet ? await mergedSecrets(ctx, id, {}) : {})
    // The create rules (the type's own fields, every secret used given) over the result of the change.
    createSyntheticInput.parse({
      name: current.name,
      type,
      ...(target.kind === 'flow' ? { steps: target.steps } : {}),
      ...(target.kind === 'browser'
        ? { script: target.script, screenshotOnSuccess: target.screenshotOnSuccess ?? false }
        : {}),
      // Fields of the other type are refused by name, as on create.
      ...(type === 'browser' && changes.steps ? { steps: changes.steps } : {}),
      ...(type === 'api' && changes.script !== undefined ? { script: changes.script } : {}),
      ...(type === 'api' && changes.screenshotOnSuccess !== undefined
        ? { screenshotOnSuccess: changes.screenshotOnSuccess }
        : {}),
      secrets: known,
    })
  }
  if (type === 'browser' && changes.checkInterval !== undefined) {
    await enforceBrowserInterval(ctx, current.organizationId, changes.checkInterval)
  }
  const { secrets: _secrets, steps: _steps, script: _script, screenshotOnSuccess: _shot, ...rest } = changes
  const monitor = await updateMonitor({
    ctx,
    caller,
    input: {
      kind: 'synthetic',
      id,
      changes: {
        ...rest,
        ...(retargeted ? { target } : {}),
        ...(secrets ? { secrets: Object.keys(secrets).length > 0 ? secrets : null } : {}),
      },
    },
  })
  return syntheticOf(monitor, null, await findBrowserLocations(ctx))
}
