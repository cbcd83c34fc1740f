import { isIP } from 'node:net'
import { z } from 'zod'
import { parseWellFormedJson } from '../text/well-formed.ts'
import { browserTarget } from './browser-target.ts'
import { flowTarget } from './flow.ts'
import { httpTarget } from './http-target.ts'
import { protocolTargets } from './protocols/index.ts'
import { targetHost, targetPort } from './target-fields.ts'

/**
 * A monitor's schedule as probes read it from the KV bucket `monitors` (key = monitor id).
 * Probes run the monitors whose `locations` name their own location code.
 *
 * Options beyond the first v1 fields are optional without defaults, so a message written by an
 * earlier version still decodes and re-encodes byte for byte; probes apply the defaults.
 */
const hostname = targetHost
const port = targetPort

export * from './http-target.ts'

export const tcpTarget = z.object({ kind: z.literal('tcp'), host: hostname, port })

export const dnsRecordType = z.enum(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'SRV', 'CAA', 'PTR'])
export type DnsRecordType = z.infer<typeof dnsRecordType>

/** A resolver address, `ip` or `ipv4:port`. */
export const dnsServer = z
  .string()
  .refine((value) => isIP(value) !== 0 || /^(\d{1,3}\.){3}\d{1,3}:\d{1,5}$/.test(value), {
    message: 'must be an IP address, optionally with :port',
  })

export const dnsTarget = z.object({
  kind: z.literal('dns'),
  hostname,
  recordType: dnsRecordType,
  /** One of the answers must equal this (case-insensitive, trailing dot ignored). */
  expected: z.string().min(1).optional(),
  /** Resolver to ask; default: the system's resolvers. */
  server: dnsServer.optional(),
})

export const tlsTarget = z.object({
  kind: z.literal('tls'),
  host: hostname,
  port: port.optional(),
  /** A certificate expiring within this many days makes the result `degraded`; default 14. */
  warnDays: z.number().int().min(0).max(3650).optional(),
})

export const icmpTarget = z.object({
  kind: z.literal('icmp'),
  host: hostname,
  /** Echo requests per check; default 3. */
  count: z.number().int().min(1).max(10).optional(),
})

export const monitorTarget = z.discriminatedUnion('kind', [
  httpTarget,
  tcpTarget,
  dnsTarget,
  tlsTarget,
  icmpTarget,
  flowTarget,
  browserTarget,
  ...protocolTargets,
])
export type MonitorTarget = z.infer<typeof monitorTarget>
export type HttpTarget = z.infer<typeof httpTarget>
export type TcpTarget = z.infer<typeof tcpTarget>
export type DnsTarget = z.infer<typeof dnsTarget>
export type TlsTarget = z.infer<typeof tlsTarget>
export type IcmpTarget = z.infer<typeof icmpTarget>

export const monitorConfigV1 = z.object({
  v: z.literal(1),
  id: z.string().min(1),
  organizationId: z.string().min(1),
  target: monitorTarget,
  intervalSeconds: z.number().int().min(5).max(86_400),
  timeoutSeconds: z.number().positive().max(300),
  /** Location codes that run this monitor; `*` means every probe. */
  locations: z.array(z.string().min(1)).min(1),
  enabled: z.boolean(),
  /**
   * Response-time thresholds for any kind of check, applied by the probe after the checker: an `up`
   * slower than `downAboveMs` is `down`, slower than `degradedAboveMs` is `degraded`, both with
   * errorKind `slow`. HTTP's own `target.degradedAboveMs` still applies; the lower one wins.
   */
  degradedAboveMs: z.number().int().positive().optional(),
  downAboveMs: z.number().int().positive().optional(),
})

export type MonitorConfig = z.infer<typeof monitorConfigV1>

export const MONITORS_BUCKET = 'monitors'

export function monitorRunsAt(monitor: MonitorConfig, location: string): boolean {
  return monitor.enabled && (monitor.locations.includes('*') || monitor.locations.includes(location))
}

export function encodeMonitorConfig(monitor: MonitorConfig): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(monitorConfigV1.parse(monitor)))
}

export function decodeMonitorConfig(data: Uint8Array): MonitorConfig {
  return monitorConfigV1.parse(parseWellFormedJson(new TextDecoder().decode(data)))
}
