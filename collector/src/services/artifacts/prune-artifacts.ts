import type { CollectorContext } from '../../context.ts'
import { artifactStorageOf } from './storage.ts'

/** Removes the artifacts of runs older than GUARD_ARTIFACT_RETENTION_DAYS; returns how many runs'. */
export async function pruneArtifacts({
  ctx,
  now = new Date(),
}: {
  ctx: Pick<CollectorContext, 'env'>
  now?: Date
}): Promise<number> {
  const storage = artifactStorageOf(ctx)
  const cutoff = now.getTime() - ctx.env.GUARD_ARTIFACT_RETENTION_DAYS * 86_400_000
  const expired = (await storage.list()).filter((run) => run.modifiedAt.getTime() < cutoff)
  for (const run of expired) await storage.delete(run.prefix)
  return expired.length
}
