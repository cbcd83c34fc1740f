import type { Resolver } from 'node:dns/promises'
import type { DnsRecord, DnsRecordType } from '@guard/shared'

/** Asks one record type and renders every answer as text, with TTLs where the resolver API gives them. */
export async function resolveRecords(resolver: Resolver, hostname: string, type: DnsRecordType): Promise<DnsRecord[]> {
  switch (type) {
    case 'A':
      return (await resolver.resolve4(hostname, { ttl: true })).map(({ address, ttl }) => ({
        type,
        value: address,
        ttl,
      }))
    case 'AAAA':
      return (await resolver.resolve6(hostname, { ttl: true })).map(({ address, ttl }) => ({
        type,
        value: address,
        ttl,
      }))
    case 'CNAME':
      return (await resolver.resolveCname(hostname)).map((value) => ({ type, value }))
    case 'NS':
      return (await resolver.resolveNs(hostname)).map((value) => ({ type, value }))
    case 'PTR':
      return (await resolver.resolvePtr(hostname)).map((value) => ({ type, value }))
    case 'MX':
      return (await resolver.resolveMx(hostname))
        .sort((a, b) => a.priority - b.priority)
        .map(({ priority, exchange }) => ({ type, value: `${priority} ${exchange}` }))
    case 'TXT':
      return (await resolver.resolveTxt(hostname)).map((parts) => ({ type, value: parts.join('') }))
    case 'SRV':
      return (await resolver.resolveSrv(hostname)).map(({ priority, weight, port, name }) => ({
        type,
        value: `${priority} ${weight} ${port} ${name}`,
      }))
    case 'CAA':
      return (await resolver.resolveCaa(hostname)).map((record) => {
        const [tag, value] = Object.entries(record).find(([key]) => key !== 'critical') ?? ['', '']
        return { type, value: `${record.critical} ${tag} "${String(value)}"` }
      })
    case 'SOA': {
      const soa = await resolver.resolveSoa(hostname)
      return [
        {
          type,
          value: `${soa.nsname} ${soa.hostmaster} ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minttl}`,
        },
      ]
    }
  }
}
