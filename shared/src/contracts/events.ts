import { z } from 'zod'
import { parseWellFormedJson } from '../text/well-formed.ts'
import { errorKind } from './check-result.ts'
import { deviceHealthEventV1, deviceOfflineEventV1, deviceOnlineEventV1 } from './device-events.ts'
import { eventEnvelope, eventId } from './event-envelope.ts'

/**
 * Platform events: every state change is published once on `events.<type>` (stream EVENTS) with
 * the event id as the message id, so a retried publish is dropped and consumers can remember
 * which ids they handled. Version 1; a new field is optional, a changed meaning is a new version.
 */
const isoTime = z.iso.datetime()
const id = eventId
/** Every kind of monitor row (collector/src/services/monitors/kinds); devices have events of their own. */
export const monitorKind = z.enum(['domain', 'service', 'heartbeat', 'synthetic'])
export const incidentSeverity = z.enum(['low', 'medium', 'high', 'critical'])
export const incidentStatus = z.enum(['open', 'acknowledged', 'investigating', 'identified', 'monitoring', 'resolved'])
export const incidentCause = z.enum([
  'down',
  'certificate',
  'registration',
  'device-offline',
  'device-health',
  'manual',
  'slo',
])

const monitorRef = {
  monitorId: id,
  monitorKind,
  /** The monitor's name and target (URL or host) when the event was raised, for messages. */
  monitorName: z.string().max(500),
  target: z.string().max(2100),
}

/** The quorum's view at the transition: which of the monitor's locations were failing. */
const locationsAgreeing = z.object({
  failing: z.array(z.string().max(32)).max(500),
  total: z.array(z.string().max(32)).max(500),
})

export const monitorDownData = z.object({
  ...monitorRef,
  locations: locationsAgreeing,
  /** What the deciding result said (results of older probes carry no kind). */
  errorKind: errorKind.optional(),
  errorMessage: z.string().max(2000).optional(),
  statusCode: z.number().int().optional(),
})

export const monitorUpData = z.object({
  ...monitorRef,
  locations: locationsAgreeing,
  /** When the monitor went down, when known. */
  downSince: isoTime.optional(),
})

export const certificateExpiringData = z.object({
  ...monitorRef,
  expiresAt: isoTime,
  issuer: z.string().max(500),
  /** Whole days left when the threshold was crossed. */
  daysLeft: z.number().int(),
  /** The announced threshold: each of 30, 14, 7 and 1 days is announced once per certificate. */
  threshold: z.union([z.literal(30), z.literal(14), z.literal(7), z.literal(1)]),
})

export const certificateRenewedData = z.object({
  ...monitorRef,
  /** The expiry that was announced, and the one of the certificate now served. */
  previousExpiresAt: isoTime,
  expiresAt: isoTime,
  issuer: z.string().max(500),
})

export const domainExpiringData = z.object({
  ...monitorRef,
  /** The registrable domain (RDAP's name) under the monitor's host, e.g. `example.co.uk`. */
  domain: z.string().max(253),
  expiresAt: isoTime,
  registrar: z.string().max(500).optional(),
  /** Whole days left when the threshold was crossed. */
  daysLeft: z.number().int(),
  /** The announced threshold: each of 30, 14, 7 and 1 days is announced once per expiry date. */
  threshold: z.union([z.literal(30), z.literal(14), z.literal(7), z.literal(1)]),
})

export const domainRenewedData = z.object({
  ...monitorRef,
  domain: z.string().max(253),
  /** The expiry that was announced, and the one the registry publishes now. */
  previousExpiresAt: isoTime,
  expiresAt: isoTime,
})

/** An SLO's error budget burning faster than one of its burn alerts allows (README "SLOs and error budgets"). */
export const sloBurningData = z.object({
  sloId: id,
  sloName: z.string().max(500),
  /** The monitor or group the SLO is about: incidents and routes key on it. */
  subject: z.object({ kind: z.enum(['monitor', 'group']), id, name: z.string().max(500) }),
  monitorKind: monitorKind.optional(),
  objective: z.number(),
  severity: incidentSeverity,
  /** The firing alert: this share of the budget spent within the long window, confirmed by the short one. */
  budgetPercent: z.number(),
  longWindowMinutes: z.number().int(),
  shortWindowMinutes: z.number().int(),
  threshold: z.number(),
  longBurnRate: z.number(),
  shortBurnRate: z.number(),
  remainingPercent: z.number(),
})

export const sloRecoveredData = z.object({
  sloId: id,
  sloName: z.string().max(500),
  subject: z.object({ kind: z.enum(['monitor', 'group']), id, name: z.string().max(500) }),
  monitorKind: monitorKind.optional(),
  remainingPercent: z.number(),
})

export const incidentEventData = z.object({
  incidentId: id,
  title: z.string().max(500),
  status: incidentStatus,
  severity: incidentSeverity,
  cause: incidentCause,
  monitorId: id.optional(),
  monitorKind: z.enum([...monitorKind.options, 'device']).optional(),
  detectedAt: isoTime,
  resolvedAt: isoTime.optional(),
  /** What happened, in a sentence (the incident update's message). */
  message: z.string().max(5000),
  /** False when a person did it through the API. */
  automatic: z.boolean(),
  /** Times the incident reopened within the flapping window; its automatic changes then stay in-app. */
  flapCount: z.number().int().min(0).optional(),
  /** The monitor went down again inside the flapping window and this incident reopened: a new outage. */
  reopened: z.boolean().optional(),
  /** False when the person chose not to tell status page subscribers of this update. */
  subscribers: z.boolean().optional(),
  /** A person published it on status pages that hold automatic incidents as drafts: their subscribers hear of it now. */
  published: z.boolean().optional(),
})

export const monitorDownEvent = eventEnvelope('monitor.down', monitorDownData)
export const monitorUpEvent = eventEnvelope('monitor.up', monitorUpData)
export const certificateExpiringEvent = eventEnvelope('certificate.expiring', certificateExpiringData)
export const certificateRenewedEvent = eventEnvelope('certificate.renewed', certificateRenewedData)
export const domainExpiringEvent = eventEnvelope('domain.expiring', domainExpiringData)
export const domainRenewedEvent = eventEnvelope('domain.renewed', domainRenewedData)
export const sloBurningEvent = eventEnvelope('slo.burning', sloBurningData)
export const sloRecoveredEvent = eventEnvelope('slo.recovered', sloRecoveredData)
export const incidentOpenedEvent = eventEnvelope('incident.opened', incidentEventData)
export const incidentUpdatedEvent = eventEnvelope('incident.updated', incidentEventData)
export const incidentResolvedEvent = eventEnvelope('incident.resolved', incidentEventData)

export const guardEventV1 = z.discriminatedUnion('type', [
  monitorDownEvent,
  monitorUpEvent,
  certificateExpiringEvent,
  certificateRenewedEvent,
  domainExpiringEvent,
  domainRenewedEvent,
  incidentOpenedEvent,
  incidentUpdatedEvent,
  incidentResolvedEvent,
  deviceOfflineEventV1,
  deviceOnlineEventV1,
  deviceHealthEventV1,
  sloBurningEvent,
  sloRecoveredEvent,
])

export type GuardEvent = z.infer<typeof guardEventV1>
export type GuardEventType = GuardEvent['type']
export type EventOf<T extends GuardEventType> = Extract<GuardEvent, { type: T }>
export type IncidentEventData = z.infer<typeof incidentEventData>
export type IncidentSeverity = z.infer<typeof incidentSeverity>
export type IncidentStatus = z.infer<typeof incidentStatus>
export type IncidentCause = z.infer<typeof incidentCause>

export const eventSubject = (type: string) => `events.${type}`

export function encodeEvent(event: GuardEvent): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(guardEventV1.parse(event)))
}

/** Throws (ZodError or SyntaxError) for anything that is not a known v1 event. */
export function decodeEvent(data: Uint8Array): GuardEvent {
  return guardEventV1.parse(parseWellFormedJson(new TextDecoder().decode(data)))
}
