import { artifactUploadSubject, artifactUploadV1, decodeJson, type Stoppable } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { storeArtifact } from '../services/artifacts/store-artifact.ts'

/** Collectors share artifact uploads in this queue group: each piece is stored once. */
const COLLECTOR_QUEUE = 'collectors'

/**
 * Answers probes' artifact uploads (browser runs' screenshots and traces, in pieces) from every
 * location; the reply is empty once the piece is stored, an error otherwise (the probe then
 * leaves the artifact out of the run's result).
 */
export function answerArtifactUploads(ctx: CollectorContext): Promise<Stoppable> {
  return ctx.bus.respond(artifactUploadSubject('*'), COLLECTOR_QUEUE, async (data) => {
    await storeArtifact({ ctx, input: decodeJson(artifactUploadV1, data) })
    return new Uint8Array()
  })
}
