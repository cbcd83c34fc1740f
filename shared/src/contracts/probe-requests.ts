import { z } from 'zod'
import { checkResultV1 } from './check-result.ts'
import { monitorConfigV1 } from './monitor.ts'

/**
 * Requests the collector sends to probes over request/reply. Each probe answers on its own
 * location and, in the queue group `probes`, on `any`, so a request to `any` reaches one probe.
 */
export const PROBE_QUEUE = 'probes'

export const manualCheckSubject = (location: string | 'any') => `probe.${location}.check`

/** Run this monitor once, now, and answer with the result (not published to the results stream). */
export const manualCheckRequestV1 = z.object({ v: z.literal(1), monitor: monitorConfigV1 })
export type ManualCheckRequest = z.infer<typeof manualCheckRequestV1>

export const manualCheckReplyV1 = z.object({ v: z.literal(1), result: checkResultV1 })
export type ManualCheckReply = z.infer<typeof manualCheckReplyV1>
