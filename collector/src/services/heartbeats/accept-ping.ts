import {
  encodeHeartbeatPing,
  GuardError,
  type HeartbeatPing,
  heartbeatPingSubject,
  newId,
  PING_BODY_MAX_BYTES,
  type PingType,
} from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { PING_TOKEN_PATTERN } from './token.ts'
import type { PingTarget } from './token-lookup.ts'

export interface PingRequest {
  token: string
  type: PingType
  exitCode?: number | undefined
  rid?: string | undefined
  method: string
  sourceIp: string
  userAgent?: string | undefined
  body?: Buffer | string | undefined
}

/** The same answer whether the token never existed, was regenerated or its heartbeat deleted. */
export const unknownPing = () => new GuardError('NOT_FOUND', 'Not found')

/** Keeps the first 100 kB of a body, cut on a character boundary. */
function keptBody(body: Buffer | string | undefined): string | undefined {
  if (body === undefined || body.length === 0) return undefined
  const bytes = typeof body === 'string' ? Buffer.from(body) : body
  const text = bytes.subarray(0, PING_BODY_MAX_BYTES).toString('utf8')
  // A cut inside a multi-byte character leaves U+FFFD, which may take more bytes than it replaced.
  return Buffer.byteLength(text) > PING_BODY_MAX_BYTES ? text.slice(0, -1) : text
}

/**
 * Finds the heartbeat of a ping URL's token and puts the ping on the bus; resolves only once the bus
 * stored it, which is when the sender may be told 200. The consumer does the rest.
 */
export async function acceptPing(
  ctx: CollectorContext,
  lookup: (token: string) => Promise<PingTarget | undefined>,
  request: PingRequest,
  now = new Date(),
): Promise<HeartbeatPing> {
  if (!PING_TOKEN_PATTERN.test(request.token)) throw unknownPing()
  const heartbeat = await lookup(request.token)
  if (!heartbeat) throw unknownPing()
  const body = keptBody(request.body)
  const ping: HeartbeatPing = {
    v: 1,
    id: newId(),
    monitorId: heartbeat.monitorId,
    organizationId: heartbeat.organizationId,
    type: request.type,
    ...(request.exitCode !== undefined ? { exitCode: request.exitCode } : {}),
    ...(request.rid ? { rid: request.rid } : {}),
    receivedAt: now.toISOString(),
    method: request.method,
    sourceIp: request.sourceIp.slice(0, 64),
    ...(request.userAgent ? { userAgent: request.userAgent.slice(0, 500) } : {}),
    ...(body ? { body } : {}),
  }
  try {
    await ctx.bus.publish(heartbeatPingSubject, encodeHeartbeatPing(ping), { msgId: ping.id })
  } catch (error) {
    ctx.log.warn({ err: error, heartbeatId: heartbeat.monitorId }, 'ping not stored on the bus')
    throw new GuardError('SERVICE_UNAVAILABLE', 'Ping not stored; retry')
  }
  return ping
}
