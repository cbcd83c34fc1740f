import {
  type DnsLookupReply,
  type DnsLookupRequest,
  type DnsRecord,
  type DnsRecordType,
  forbiddenAddressReason,
  TargetRefusedError,
} from '@guard/shared'
import { parseServer, queryRecords, systemServer } from './dns-query.ts'

const ALL_TYPES: DnsRecordType[] = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'CAA']
const TIMEOUT_MS = 5000

/** Looks up one record type, or all common ones at once, each answer with its TTL. */
export async function lookupDns(request: DnsLookupRequest, allowPrivate: boolean): Promise<DnsLookupReply> {
  const started = performance.now()
  // A resolver the requester names is a target like any other; the system's own is trusted.
  const server = request.server ? parseServer(request.server) : systemServer()
  const reason = request.server && !allowPrivate ? forbiddenAddressReason(server.address) : undefined
  if (reason) {
    throw new TargetRefusedError(
      `refused: DNS server ${server.address} is a ${reason} address; set GUARD_ALLOW_PRIVATE_TARGETS=1 to allow private targets`,
    )
  }
  const types = request.type === 'ANY' ? ALL_TYPES : [request.type]
  const records: DnsRecord[] = []
  const errors: Record<string, string> = {}
  await Promise.all(
    types.map(async (type) => {
      try {
        records.push(...(await queryRecords(request.hostname, type, server, TIMEOUT_MS)))
      } catch (error) {
        errors[type] = error instanceof Error ? error.message : String(error)
      }
    }),
  )
  records.sort((a, b) => types.indexOf(a.type) - types.indexOf(b.type))
  return { v: 1, hostname: request.hostname, records, errors, durationMs: Math.round(performance.now() - started) }
}
