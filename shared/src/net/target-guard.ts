import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/**
 * Keeps checks, toolbox scans and the collector's page fetches away from the networks around
 * the process: private, loopback, link-local (cloud metadata), CGNAT, unique-local, multicast
 * and reserved ranges. Callers connect to the address returned here, never to the name again,
 * so a DNS answer that changes between the check and the connection cannot slip through.
 */
export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError'
  readonly code = 'TARGET_REFUSED'
}

export interface AllowedTarget {
  hostname: string
  /** The vetted IP address to connect to. */
  address: string
  family: 4 | 6
  /** Time spent resolving the name; 0 for an IP literal. */
  lookupMs: number
}

export interface ResolveTargetOptions {
  /** Operator's opt-in (GUARD_ALLOW_PRIVATE_TARGETS=1) to reach private and loopback addresses. */
  allowPrivate: boolean
  signal?: AbortSignal
}

type Family = 'ipv4' | 'ipv6'
const ranges: Array<[string, number, Family, string]> = [
  ['0.0.0.0', 8, 'ipv4', 'this-network'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'ipv4', 'documentation'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'benchmarking'],
  ['198.51.100.0', 24, 'ipv4', 'documentation'],
  ['203.0.113.0', 24, 'ipv4', 'documentation'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['::ffff:0:0', 96, 'ipv6', 'IPv4-mapped'],
  ['::', 96, 'ipv6', 'IPv4-compatible'],
  ['::ffff:0:0:0', 96, 'ipv6', 'IPv4-translated'],
  ['100::', 64, 'ipv6', 'discard-only'],
  // Both carry an IPv4 address inside and reach it through relays: refused whole, like the
  // IPv4-mapped range, because the embedded address may be private or loopback.
  ['2001::', 32, 'ipv6', 'Teredo'],
  ['2002::', 16, 'ipv6', '6to4'],
  ['2001:2::', 48, 'ipv6', 'benchmarking'],
  ['2001:10::', 28, 'ipv6', 'ORCHID'],
  ['2001:db8::', 32, 'ipv6', 'documentation'],
  ['3fff::', 20, 'ipv6', 'documentation'],
  ['64:ff9b::', 96, 'ipv6', 'NAT64'],
  ['64:ff9b:1::', 48, 'ipv6', 'NAT64'],
  ['fc00::', 7, 'ipv6', 'unique-local'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'site-local'],
  ['ff00::', 8, 'ipv6', 'multicast'],
]
// One list per range and family: a BlockList also matches IPv4 addresses against IPv6 rules
// (and back) through the IPv4-mapped form, which would make every IPv4 address "mapped".
const rules = ranges.map(([network, prefix, family, reason]) => {
  const list = new BlockList()
  list.addSubnet(network, prefix, family)
  return { list, family, reason }
})

/** Why this IP address is off limits, or undefined when it is a public address. */
export function forbiddenAddressReason(address: string): string | undefined {
  const version = isIP(address)
  if (version === 0) return 'not an IP address'
  const family: Family = version === 4 ? 'ipv4' : 'ipv6'
  return rules.find((rule) => rule.family === family && rule.list.check(address, family))?.reason
}

const unbracket = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1')

function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work
  signal.throwIfAborted()
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** getaddrinfo's answers for a name that exists nowhere, or has no address. */
const NO_ADDRESS_CODES = new Set(['ENOTFOUND', 'ENODATA'])

/**
 * One refusal for every name without a public address, whether it resolves to private ones or
 * to none at all: telling the two apart would let a caller enumerate the names that only
 * resolve inside the network around the process.
 */
export const noPublicAddress = (name: string) =>
  new TargetRefusedError(
    `refused: ${name} does not resolve to a public address; set GUARD_ALLOW_PRIVATE_TARGETS=1 to allow private targets`,
  )

async function lookupName(name: string, options: ResolveTargetOptions) {
  try {
    return await abortable(lookup(name, { all: true, verbatim: true }), options.signal)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (!options.allowPrivate && code !== undefined && NO_ADDRESS_CODES.has(code)) throw noPublicAddress(name)
    throw error
  }
}

/**
 * Resolves `hostname` and returns the address to connect to. Refuses with a TargetRefusedError
 * when any address it resolves to is forbidden (a name with one private answer among public
 * ones is refused as a whole), unless `allowPrivate` is set.
 */
export async function resolveAllowedTarget(hostname: string, options: ResolveTargetOptions): Promise<AllowedTarget> {
  const name = unbracket(hostname)
  const literal = isIP(name)
  const started = performance.now()
  const addresses = literal !== 0 ? [{ address: name, family: literal }] : await lookupName(name, options)
  const lookupMs = literal !== 0 ? 0 : performance.now() - started
  const first = addresses[0]
  if (!first) {
    if (!options.allowPrivate) throw noPublicAddress(name)
    throw new Error(`${name} did not resolve to any address`)
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const reason = forbiddenAddressReason(address)
      if (!reason) continue
      // An IP literal's own kind tells the caller nothing it did not know.
      if (literal === 0) throw noPublicAddress(name)
      throw new TargetRefusedError(
        `refused: ${address}, a ${reason} address; set GUARD_ALLOW_PRIVATE_TARGETS=1 to allow private targets`,
      )
    }
  }
  return { hostname: name, address: first.address, family: first.family === 6 ? 6 : 4, lookupMs }
}
