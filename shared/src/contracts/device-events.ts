import { z } from 'zod'
import { parseWellFormedJson } from '../text/well-formed.ts'
import { eventEnvelope } from './event-envelope.ts'

/**
 * Versioned events of a device's state, published once per change on `events.device.<kind>`
 * (stream EVENTS). Consumers (incidents, notifications, activity) dedupe on `id`: it is stable
 * for one change, so a republished event is the same event.
 */
export const deviceHealth = z.enum(['healthy', 'warning', 'critical'])
export type DeviceHealth = z.infer<typeof deviceHealth>

/** Who the event is about, as the device was named when it happened (for messages). */
const deviceRef = {
  deviceId: z.string().min(1),
  deviceName: z.string(),
  hostname: z.string().nullable(),
}

export const deviceOfflineData = z.object({
  ...deviceRef,
  /** When the collector last heard from the device. */
  lastSeen: z.iso.datetime().nullable(),
  /** Seconds of silence after which the device counts as offline. */
  offlineAfterSeconds: z.number().int().positive(),
})

export const deviceOnlineData = z.object({
  ...deviceRef,
  lastSeen: z.iso.datetime(),
  /** False for a device's very first heartbeat. */
  wasOffline: z.boolean(),
})

export const healthReason = z.object({
  metric: z.enum(['cpu', 'memory', 'disk']),
  value: z.number(),
  threshold: z.number(),
  level: z.enum(['warning', 'critical']),
})

export const deviceHealthData = z.object({
  ...deviceRef,
  previous: deviceHealth,
  current: deviceHealth,
  /** The metrics over their thresholds in the heartbeat that confirmed the change; empty when healthy. */
  reasons: z.array(healthReason),
})

/** In the platform's envelope; a device event's `id` is `<deviceId>:<state version>`, the same for one change. */
export const deviceOfflineEventV1 = eventEnvelope('device.offline', deviceOfflineData)
export const deviceOnlineEventV1 = eventEnvelope('device.online', deviceOnlineData)
export const deviceHealthEventV1 = eventEnvelope('device.health', deviceHealthData)

export const deviceEventV1 = z.discriminatedUnion('type', [
  deviceOfflineEventV1,
  deviceOnlineEventV1,
  deviceHealthEventV1,
])
export type DeviceEvent = z.infer<typeof deviceEventV1>
export type DeviceEventType = DeviceEvent['type']

export const EVENTS_STREAM = 'EVENTS'
/** `events.device.offline`, `events.device.online`, `events.device.health`. */
export const deviceEventSubject = (type: DeviceEventType) => `events.${type}`
export const DEVICE_EVENTS_FILTER = 'events.device.>'

export function encodeDeviceEvent(event: DeviceEvent): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(deviceEventV1.parse(event)))
}

/** Throws a ZodError (or SyntaxError) for anything that is not a v1 device event. */
export function decodeDeviceEvent(data: Uint8Array): DeviceEvent {
  return deviceEventV1.parse(parseWellFormedJson(new TextDecoder().decode(data)))
}
