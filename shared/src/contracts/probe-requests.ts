import { z } from 'zod'
import { parseWellFormedJson } from '../text/well-formed.ts'
import { checkResultV1 } from './check-result.ts'
import { dnsRecordType, dnsServer, monitorConfigV1 } from './monitor.ts'

/**
 * Requests the collector sends to probes over request/reply. Each probe answers on its own
 * location and on `any`, both in the queue group `probes`, so a request reaches one probe.
 */
export const PROBE_QUEUE = 'probes'

export const manualCheckSubject = (location: string | 'any') => `probe.${location}.check`

/** Manual runs of browser checks: only probes with a browser answer here. */
export const browserCheckSubject = (location: string | 'any') => `probe.${location}.browser-check`

/** Run this monitor once, now, and answer with the result (not published to the results stream). */
export const manualCheckRequestV1 = z.object({ v: z.literal(1), monitor: monitorConfigV1 })
export type ManualCheckRequest = z.infer<typeof manualCheckRequestV1>

export const manualCheckReplyV1 = z.object({ v: z.literal(1), result: checkResultV1 })
export type ManualCheckReply = z.infer<typeof manualCheckReplyV1>

/** Toolbox jobs: `probe.<location>.toolbox.<job>` and `probe.any.toolbox.<job>`. */
export type ToolboxJob = 'dns' | 'ports' | 'geo'
export const toolboxSubject = (location: string | 'any', job: ToolboxJob) => `probe.${location}.toolbox.${job}`

const host = z.string().min(1).max(253)

/** DNS lookup of one record type, or every common type with `ANY`. */
export const dnsLookupRequestV1 = z.object({
  v: z.literal(1),
  hostname: host,
  type: z.union([dnsRecordType, z.literal('ANY')]).default('ANY'),
  /** Resolver to ask; default: the probe's system resolvers. */
  server: dnsServer.optional(),
})
export type DnsLookupRequest = z.infer<typeof dnsLookupRequestV1>

export const dnsRecord = z.object({
  type: dnsRecordType,
  /** The record as text: an address, a name, `10 mail.example.org` for MX, the joined TXT strings. */
  value: z.string(),
  /** Seconds, as the answering resolver gave it. */
  ttl: z.number().int().nonnegative().optional(),
})
export type DnsRecord = z.infer<typeof dnsRecord>

export const dnsLookupReplyV1 = z.object({
  v: z.literal(1),
  hostname: host,
  records: z.array(dnsRecord),
  /** Record types whose lookup failed (timeout, SERVFAIL, …) rather than finding no record, with the reason. */
  errors: z.record(z.string(), z.string()),
  durationMs: z.number().nonnegative(),
})
export type DnsLookupReply = z.infer<typeof dnsLookupReplyV1>

const portNumber = z.number().int().min(1).max(65_535)

/**
 * TCP connect scan. `quick` scans the ~100 most common ports. Progress events go to
 * `progressSubject` (plain emits) while the scan runs; the reply carries the full result. Any
 * message on `cancelSubject` stops the scan: no new port is tried and the request fails with
 * `cancelled` (the collector sends it when its HTTP client goes away).
 */
export const portScanRequestV1 = z.object({
  v: z.literal(1),
  host,
  ports: z.union([
    z.literal('quick'),
    z.array(portNumber).min(1).max(65_535),
    z
      .object({ from: portNumber, to: portNumber })
      .refine((range) => range.from <= range.to, { message: 'from must not exceed to' }),
  ]),
  concurrency: z.number().int().min(1).max(500).default(100),
  timeoutMs: z.number().int().min(50).max(10_000).default(1000),
  progressSubject: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .optional(),
  cancelSubject: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .optional(),
})
export type PortScanRequest = z.infer<typeof portScanRequestV1>

export const portScanProgressV1 = z.object({
  v: z.literal(1),
  scanned: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** Ports found open since the previous event. */
  open: z.array(portNumber),
})
export type PortScanProgress = z.infer<typeof portScanProgressV1>

export const portScanReplyV1 = z.object({
  v: z.literal(1),
  host,
  address: z.string(),
  scanned: z.number().int().nonnegative(),
  open: z.array(z.object({ port: portNumber, service: z.string().optional() })),
  durationMs: z.number().nonnegative(),
})
export type PortScanReply = z.infer<typeof portScanReplyV1>

/** Offline IP geolocation; a hostname is resolved first. */
export const geoLookupRequestV1 = z.object({ v: z.literal(1), target: host })
export type GeoLookupRequest = z.infer<typeof geoLookupRequestV1>

export const geoLookupReplyV1 = z.object({
  v: z.literal(1),
  ip: z.string(),
  countryCode: z.string().optional(),
  region: z.string().optional(),
  city: z.string().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  timezone: z.string().optional(),
  asn: z.number().int().optional(),
  /** The network's operator as registered; the offline data does not tell ISP from organization. */
  isp: z.string().optional(),
  organization: z.string().optional(),
})
export type GeoLookupReply = z.infer<typeof geoLookupReplyV1>

/** What a probe publishes on `probes.heartbeat.<location>` every few seconds. */
export const probeHeartbeatV1 = z.object({
  v: z.literal(1),
  location: z.string(),
  /** A probe process's id, so several probes of one location can be told apart. */
  instance: z.string(),
  version: z.string(),
  at: z.iso.datetime(),
  monitors: z.number().int().nonnegative(),
  inFlight: z.number().int().nonnegative(),
  checksPerSecond: z.number().nonnegative(),
  scheduleLagP50Ms: z.number().nonnegative(),
  scheduleLagP99Ms: z.number().nonnegative(),
  outboxDepth: z.number().int().nonnegative(),
  outboxBytes: z.number().int().nonnegative(),
  outboxDropped: z.number().int().nonnegative(),
  /** The probe runs browser checks (GUARD_PROBE_BROWSER); probes older than this field run none. */
  browser: z.boolean().optional(),
})
export type ProbeHeartbeat = z.infer<typeof probeHeartbeatV1>

export const encodeJson = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value))

/** Parses a request or reply body with its schema; throws a ZodError or SyntaxError. */
export function decodeJson<Schema extends z.ZodType>(schema: Schema, data: Uint8Array): z.output<Schema> {
  return schema.parse(parseWellFormedJson(new TextDecoder().decode(data)))
}
