import { type ArtifactUpload, artifactUploadV1, GuardError } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { artifactKey, artifactStorageOf } from './storage.ts'

/**
 * Stores one piece of a browser run's screenshot or trace that a probe sends before the run's
 * result: the first piece starts the file, the next ones append. Only for a synthetic check that
 * exists in the organization the piece names, so a probe cannot file bytes anywhere else.
 */
export async function storeArtifact({
  ctx,
  input,
}: {
  ctx: Pick<CollectorContext, 'env' | 'sql'>
  input: ArtifactUpload
}): Promise<void> {
  const piece = artifactUploadV1.parse(input)
  const { rows } = await ctx.sql.query(
    "SELECT 1 FROM monitoring.monitors WHERE id = $1 AND organization_id = $2 AND kind = 'synthetic'",
    [piece.monitorId, piece.organizationId],
  )
  if (rows.length === 0) throw new GuardError('NOT_FOUND', `synthetic check ${piece.monitorId} not found`)
  const key = artifactKey(piece.organizationId, piece.monitorId, piece.resultId, piece.name)
  const data = Buffer.from(piece.data, 'base64')
  const storage = artifactStorageOf(ctx)
  if (piece.index === 0) await storage.put(key, data)
  else await storage.append(key, data)
}
