import { browserArtifactName, GuardError } from '@guard/shared'
import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor } from '../monitors/find.ts'
import { artifactKey, artifactStorageOf } from './storage.ts'

export const getArtifactInput = z.object({
  id: z.string().min(1).max(64),
  runId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a run id'),
  name: browserArtifactName,
})

const CONTENT_TYPES = { 'screenshot.png': 'image/png', 'trace.zip': 'application/zip' } as const

/** One stored artifact of one run of the caller's organization's synthetic check. */
export async function getArtifact({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: z.input<typeof getArtifactInput>
}): Promise<{ data: Uint8Array; contentType: string }> {
  const { id, runId, name } = getArtifactInput.parse(input)
  const monitor = await findMonitor(ctx.sql, caller, 'synthetic', id)
  const data = await artifactStorageOf(ctx).get(artifactKey(monitor.organizationId, monitor.id, runId, name))
  if (!data) throw new GuardError('NOT_FOUND', `run ${runId} of synthetic check ${id} has no ${name}`)
  return { data, contentType: CONTENT_TYPES[name] }
}
