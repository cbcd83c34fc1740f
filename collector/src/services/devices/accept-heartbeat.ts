import {
  type AgentHeartbeat,
  agentHeartbeat,
  deviceHeartbeatMsgId,
  deviceHeartbeatSubject,
  encodeDeviceHeartbeat,
  GuardError,
} from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import type { AgentDevice } from './authenticate-agent.ts'

/** Agents' clocks drift; a sample further ahead than this is refused rather than stored in the future. */
const MAX_CLOCK_AHEAD_MS = 5 * 60_000

/**
 * Validates a heartbeat of an authenticated device and publishes it on the bus. Resolves only once
 * the bus has stored it, which is when the agent may forget it; the consumer does the rest.
 */
export async function acceptHeartbeat(
  ctx: CollectorContext,
  device: AgentDevice,
  body: unknown,
  now = new Date(),
): Promise<{ timestamp: string; duplicate: boolean }> {
  const heartbeat: AgentHeartbeat = agentHeartbeat.parse(body)
  if (heartbeat.device_id !== device.id) {
    throw new GuardError('FORBIDDEN', 'This token belongs to another device than device_id')
  }
  const time = heartbeat.timestamp ? new Date(heartbeat.timestamp) : now
  if (time.getTime() > now.getTime() + MAX_CLOCK_AHEAD_MS) {
    throw new GuardError('VALIDATION_ERROR', 'timestamp: more than 5 minutes in the future (check the clock)')
  }
  const oldest = now.getTime() - ctx.env.GUARD_RETENTION_RAW_DAYS * 86_400_000
  if (time.getTime() < oldest) {
    throw new GuardError(
      'VALIDATION_ERROR',
      `timestamp: older than the ${ctx.env.GUARD_RETENTION_RAW_DAYS}-day retention`,
    )
  }
  const timestamp = time.toISOString()
  const message = encodeDeviceHeartbeat({
    v: 1,
    deviceId: device.id,
    organizationId: device.organizationId,
    timestamp,
    receivedAt: now.toISOString(),
    heartbeat,
  })
  let ack: Awaited<ReturnType<typeof ctx.bus.publish>>
  try {
    ack = await ctx.bus.publish(deviceHeartbeatSubject, message, { msgId: deviceHeartbeatMsgId(device.id, timestamp) })
  } catch (error) {
    ctx.log.warn({ err: error, deviceId: device.id }, 'heartbeat not stored on the bus')
    throw new GuardError('SERVICE_UNAVAILABLE', 'Heartbeat not stored; keep it and retry')
  }
  return { timestamp, duplicate: ack.duplicate }
}
