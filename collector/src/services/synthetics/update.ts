import type { Caller, CollectorContext } from '../../context.ts'
import { openSecrets } from '../monitors/credentials.ts'
import { findMonitor, findSealedCredentials } from '../monitors/find.ts'
import { updateMonitor } from '../monitors/update.ts'
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

/** Changes the given fields; the steps and secrets must still agree, as on create. */
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
  const secrets = changes.secrets ? await mergedSecrets(ctx, id, changes.secrets) : undefined
  const steps = changes.steps ?? (current.target.kind === 'flow' ? current.target.steps : [])
  if (changes.steps || changes.secrets) {
    const known = secrets ?? (current.credentialsSet ? await mergedSecrets(ctx, id, {}) : {})
    // The create rules (every {{secrets.NAME}} given) over the result of the change.
    createSyntheticInput.parse({ name: current.name, steps, secrets: known })
  }
  const { secrets: _secrets, steps: _steps, ...rest } = changes
  const monitor = await updateMonitor({
    ctx,
    caller,
    input: {
      kind: 'synthetic',
      id,
      changes: {
        ...rest,
        ...(changes.steps ? { target: { kind: 'flow', steps } } : {}),
        ...(secrets ? { secrets: Object.keys(secrets).length > 0 ? secrets : null } : {}),
      },
    },
  })
  return syntheticOf(monitor, null)
}
