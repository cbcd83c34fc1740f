import { lookup } from 'node:dns/promises'
import {
  decodeJson,
  dnsLookupReplyV1,
  encodeJson,
  forbiddenAddressReason,
  GuardError,
  toolboxSubject,
} from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { requirePermission } from '../access/require.ts'
import { askProbe, guardTarget } from './ask-probe.ts'
import { type DnsLookupInput, type DnsLookupResult, dnsLookupInput } from './schemas.ts'

const TIMEOUT_MS = 15_000

/** Whether `name` has an address here that the target guard refuses (one among public ones is enough). */
async function resolvesPrivately(name: string): Promise<boolean> {
  const addresses = await lookup(name, { all: true }).catch(() => [])
  return addresses.some(({ address }) => forbiddenAddressReason(address) !== undefined)
}

/** One record type of a name, looked up by a probe with its system resolvers. */
export async function lookupDns({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: DnsLookupInput
}): Promise<DnsLookupResult> {
  requirePermission(caller, 'toolbox:read')
  const { domain, record_type: type, server, location } = dnsLookupInput.parse(input)
  // A resolver named by the caller is a target too.
  if (server) await guardTarget(ctx, server.replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1'))
  // A name with a non-public address is answered exactly like a name that does not exist: the
  // lookup is no oracle for names that only resolve inside the network. A name without any
  // address (`_dmarc.…`) is looked up: its records are the point.
  if (!ctx.env.GUARD_ALLOW_PRIVATE_TARGETS && (await resolvesPrivately(domain))) {
    return { domain, records: [], total: 0 }
  }
  const reply = decodeJson(
    dnsLookupReplyV1,
    await askProbe(ctx, {
      task: 'the DNS lookup',
      subject: toolboxSubject(location ?? 'any', 'dns'),
      body: encodeJson({ v: 1, hostname: domain, type, ...(server ? { server } : {}) }),
      location,
      timeoutMs: TIMEOUT_MS,
    }),
  )
  // No record of a type is an empty answer, not a failure; a resolver that failed is.
  const failures = Object.entries(reply.errors).filter(
    ([, reason]) => !/ENODATA|ENOTFOUND|NXDOMAIN|no data/i.test(reason),
  )
  if (reply.records.length === 0 && failures.length > 0) {
    const detail = failures.map(([failed, reason]) => `${failed}: ${reason}`).join('; ')
    throw new GuardError('BAD_GATEWAY', `The DNS lookup failed: ${detail}`)
  }
  const records = reply.records.map((record) => ({
    type: record.type,
    name: domain,
    value: record.value,
    ttl: record.ttl ?? null,
  }))
  return { domain, records, total: records.length }
}
