import { dnsRecordType, dnsServer } from '@guard/shared'
import { z } from 'zod'

const host = z.string().trim().min(1).max(253)
/** A probe location code, or none for any probe. */
const location = z
  .string()
  .regex(/^[a-z0-9-]{1,32}$/, 'a location code: lowercase letters, digits and dashes')
  .optional()
  .describe('Probe location to run on; any probe when omitted')

export const dnsLookupInput = z.strictObject({
  domain: host.describe('Name to look up'),
  record_type: z
    .union([dnsRecordType.exclude(['PTR']), z.literal('ANY')])
    .default('A')
    .describe('ANY: every common type (A, AAAA, CNAME, MX, TXT, NS, SOA, CAA)'),
  server: dnsServer
    .optional()
    .describe("Resolver to ask (IP, optionally :port); the probe's own resolvers when omitted"),
  location,
})
export type DnsLookupInput = z.input<typeof dnsLookupInput>

export const dnsLookupResult = z.object({
  domain: z.string(),
  records: z.array(
    z.object({
      type: z.string(),
      name: z.string(),
      value: z.string(),
      ttl: z.number().int().nullable().describe('Seconds, as the answering resolver gave it'),
    }),
  ),
  total: z.number().int(),
})
export type DnsLookupResult = z.infer<typeof dnsLookupResult>

const port = z.number().int().min(1).max(65_535)

/** `22,80,443`, `1-1024` or both mixed: `22,8000-8100`. */
const portList = z
  .string()
  .trim()
  .max(2000)
  .regex(/^\d{1,5}(-\d{1,5})?(,\s*\d{1,5}(-\d{1,5})?)*$/, 'comma-separated ports or ranges, e.g. 22,80,8000-8100')

export const SCAN_TYPES = ['quick', 'common', 'full'] as const

export const portScanInput = z.strictObject({
  target: host.describe('Host name or IP address to scan'),
  scanType: z
    .enum(SCAN_TYPES)
    .optional()
    .describe('quick: ~100 most used ports; common: 1-1024; full: 1-65535. Default quick unless ports is given'),
  ports: z
    .union([portList, z.array(port).min(1).max(65_535)])
    .optional()
    .describe('Explicit ports instead of scanType: a list, or a string such as "22,80,8000-8100"'),
  protocol: z.literal('tcp').default('tcp'),
  timeout: z.number().int().min(50).max(10_000).default(1000).describe('Milliseconds to wait for each port'),
  location,
})
export type PortScanInput = z.input<typeof portScanInput>

export const portScanProgressLine = z.object({
  type: z.literal('progress'),
  progress: z.number().min(0).max(100).describe('Percent of the ports scanned'),
})
export const portScanResultLine = z.object({
  type: z.literal('result'),
  results: z.object({ openPorts: z.array(port), totalScanned: z.number().int() }),
})
export const portScanErrorLine = z.object({
  type: z.literal('error'),
  error: z.string(),
  message: z.string(),
})
export type PortScanResult = z.infer<typeof portScanResultLine>['results']

export const ipScanInput = z.strictObject({
  ip: host.describe('IP address (or a host name, resolved first)'),
  location,
})
export type IpScanInput = z.input<typeof ipScanInput>

export const ipScanResult = z.object({
  ip: z.string(),
  country: z.string().nullable().describe('ISO 3166 country code'),
  city: z.string().nullable(),
  region: z.string().nullable(),
  isp: z.string().nullable(),
  organization: z.string().nullable(),
})
export type IpScanResult = z.infer<typeof ipScanResult>
