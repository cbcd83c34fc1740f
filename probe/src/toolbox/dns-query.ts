import { randomInt } from 'node:crypto'
import { createSocket } from 'node:dgram'
import { getServers } from 'node:dns'
import { isIP } from 'node:net'
import type { DnsRecord, DnsRecordType } from '@guard/shared'
import dnsPacket, { type Answer } from 'dns-packet'

const NXDOMAIN = 3
const RCODE_NAMES: Record<number, string> = { 1: 'FORMERR', 2: 'SERVFAIL', 4: 'NOTIMP', 5: 'REFUSED' }

export interface DnsServerAddress {
  address: string
  port: number
}

/** `ip`, `ipv4:port` or `[ipv6]:port`, as in the request or in `dns.getServers()`. */
export function parseServer(server: string): DnsServerAddress {
  const bracketed = /^\[(.+)\]:(\d+)$/.exec(server)
  if (bracketed?.[1] && bracketed[2]) return { address: bracketed[1], port: Number(bracketed[2]) }
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d+)$/.exec(server)
  if (withPort?.[1] && withPort[2]) return { address: withPort[1], port: Number(withPort[2]) }
  return { address: server, port: 53 }
}

/** The first resolver the system uses (resolv.conf), for lookups given no server. */
export function systemServer(): DnsServerAddress {
  const [first] = getServers()
  if (!first) throw new Error('the system has no DNS resolver configured')
  return parseServer(first)
}

function text(answer: Answer): string | undefined {
  switch (answer.type) {
    case 'A':
    case 'AAAA':
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return answer.data
    case 'MX':
      return `${answer.data.preference ?? 0} ${answer.data.exchange}`
    case 'TXT': {
      const parts = Array.isArray(answer.data) ? answer.data : [answer.data]
      return parts.map((part) => part.toString()).join('')
    }
    case 'SRV':
      return `${answer.data.priority ?? 0} ${answer.data.weight ?? 0} ${answer.data.port} ${answer.data.target}`
    case 'CAA':
      return `${answer.data.flags ?? 0} ${answer.data.tag} "${answer.data.value}"`
    case 'SOA': {
      const soa = answer.data
      return `${soa.mname} ${soa.rname} ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}`
    }
    default:
      return undefined
  }
}

/**
 * Asks one record type over UDP and returns the answers with their TTLs, which the system
 * resolver API hides for every type but A and AAAA. An unknown name is an empty answer.
 */
export function queryRecords(
  hostname: string,
  type: DnsRecordType,
  server: DnsServerAddress,
  timeoutMs: number,
): Promise<DnsRecord[]> {
  const id = randomInt(65_536)
  const query = dnsPacket.encode({
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type, name: hostname }],
    // EDNS0 with a large buffer, so long TXT answers fit in one datagram.
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: 4096,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: 0,
        flag_do: false,
        options: [],
      },
    ],
  })
  const socket = createSocket(isIP(server.address) === 6 ? 'udp6' : 'udp4')
  return new Promise<DnsRecord[]>((resolve, reject) => {
    const finish = (outcome: () => void) => {
      clearTimeout(timer)
      socket.close()
      outcome()
    }
    const timer = setTimeout(
      () => finish(() => reject(new Error(`no answer from ${server.address}:${server.port} within ${timeoutMs} ms`))),
      timeoutMs,
    )
    socket.on('message', (message) => {
      let packet: ReturnType<typeof dnsPacket.decode>
      try {
        packet = dnsPacket.decode(message)
      } catch {
        return
      }
      if (packet.id !== id) return
      const rcode = (packet.flags ?? 0) & 0xf
      if (rcode === NXDOMAIN) return finish(() => resolve([]))
      if (rcode !== 0) return finish(() => reject(new Error(RCODE_NAMES[rcode] ?? `rcode ${rcode}`)))
      const records = (packet.answers ?? []).flatMap((answer) => {
        const value = answer.type === type ? text(answer) : undefined
        return value === undefined
          ? []
          : [{ type, value, ...('ttl' in answer && answer.ttl !== undefined ? { ttl: answer.ttl } : {}) }]
      })
      finish(() => resolve(records))
    })
    socket.once('error', (error) => finish(() => reject(error)))
    socket.send(query, server.port, server.address)
  })
}
