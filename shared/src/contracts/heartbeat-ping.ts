import { z } from 'zod'
import { parseWellFormedJson } from '../text/well-formed.ts'

/** Largest ping body kept, in bytes (as healthchecks.io keeps); the rest is cut off. */
export const PING_BODY_MAX_BYTES = 100_000

/**
 * What a heartbeat monitor's ping says: `success` (`/ping/{token}` or exit code 0), `start` (a run
 * began), `fail` (`/ping/{token}/fail`) or `exit` with a nonzero code.
 */
export const pingType = z.enum(['success', 'start', 'fail', 'exit'])
export type PingType = z.infer<typeof pingType>

/** What the collector puts on the bus for every ping it answered 200. */
export const heartbeatPingV1 = z.object({
  v: z.literal(1),
  /** Unique per ping; doubles as the bus message id. */
  id: z.string().min(1),
  monitorId: z.string().min(1),
  organizationId: z.string().min(1),
  type: pingType,
  exitCode: z.number().int().min(0).max(255).optional(),
  /** The caller's run id, pairing a start with its end when runs overlap. */
  rid: z.string().max(100).optional(),
  receivedAt: z.iso.datetime(),
  method: z.string().max(10),
  sourceIp: z.string().max(64),
  userAgent: z.string().max(500).optional(),
  body: z.string().max(PING_BODY_MAX_BYTES).optional(),
})
export type HeartbeatPing = z.infer<typeof heartbeatPingV1>

export const PINGS_STREAM = 'PINGS'
export const heartbeatPingSubject = 'pings.heartbeat'

export function encodeHeartbeatPing(ping: HeartbeatPing): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(heartbeatPingV1.parse(ping)))
}

const utf8 = new TextDecoder()

/** Throws for anything that is not a v1 ping. */
export function decodeHeartbeatPing(data: Uint8Array): HeartbeatPing {
  return heartbeatPingV1.parse(parseWellFormedJson(utf8.decode(data)))
}
