import { decodeJson, dnsLookupReplyV1, encodeJson, GuardError, toolboxSubject } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { requirePermission } from '../access/require.ts'
import { askProbe, guardTarget } from './ask-probe.ts'
import { type DnsLookupInput, type DnsLookupResult, dnsLookupInput } from './schemas.ts'

const TIMEOUT_MS = 15_000

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
  await guardTarget(ctx, domain)
  // A resolver named by the caller is a target too.
  if (server) await guardTarget(ctx, server.replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1'))
  const reply = decodeJson(
    dnsLookupReplyV1,
    await askProbe(
      ctx,
      toolboxSubject(location ?? 'any', 'dns'),
      encodeJson({ v: 1, hostname: domain, type, ...(server ? { server } : {}) }),
      location,
      TIMEOUT_MS,
    ),
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
