import { isIP } from 'node:net'
import { z } from 'zod'

/**
 * A monitor's schedule as probes read it from the KV bucket `monitors` (key = monitor id).
 * Probes run the monitors whose `locations` name their own location code.
 *
 * Options beyond the first v1 fields are optional without defaults, so a message written by an
 * earlier version still decodes and re-encodes byte for byte; probes apply the defaults.
 */
const hostname = z
  .string()
  .min(1)
  .max(253)
  .refine((value) => isIP(value) !== 0 || /^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_.])?$/.test(value), {
    message: 'must be a hostname or an IP address',
  })
const port = z.number().int().min(1).max(65_535)

const compilableRegex = z.string().refine(
  (source) => {
    try {
      new RegExp(source)
      return true
    } catch {
      return false
    }
  },
  { message: 'must be a valid regular expression' },
)

/** A status code (`200`) or an inclusive range (`"200-299"`). */
export const expectedStatus = z.union([
  z.number().int().min(100).max(999),
  z.string().regex(/^\d{3}-\d{3}$/, 'must be a code range such as 200-299'),
])

export const httpTarget = z.object({
  kind: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }),
  method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']).default('GET'),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().max(65_536).optional(),
  /** Default: 200-399. */
  expectedStatus: z.array(expectedStatus).min(1).optional(),
  /** The body must contain this text. */
  keyword: z.string().min(1).optional(),
  /** The body must match this regular expression. */
  regex: compilableRegex.optional(),
  /** The body parsed as JSON must have a value at this JSONPath, equal to `equals` when given. */
  jsonPath: z.object({ path: z.string().min(1), equals: z.json().optional() }).optional(),
  /** Default: true, up to 10 hops. */
  followRedirects: z.boolean().optional(),
  /** An answer slower than this is `degraded` rather than `up`. */
  degradedAboveMs: z.number().int().positive().optional(),
  /** Accept an invalid or expired certificate (its details are still reported). */
  ignoreTlsErrors: z.boolean().optional(),
})

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

export const monitorTarget = z.discriminatedUnion('kind', [httpTarget, tcpTarget, dnsTarget, tlsTarget, icmpTarget])
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
  return monitorConfigV1.parse(JSON.parse(new TextDecoder().decode(data)))
}
