import { promises as dns } from 'node:dns'
import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'
import { findAccessRow } from './get-access.ts'
import type { DomainCheckView } from './schemas.ts'

/** The lookups the check makes; tests pass a fake, production the system resolver. */
export interface DomainResolver {
  resolveCname(host: string): Promise<string[]>
  resolve4(host: string): Promise<string[]>
  resolve6(host: string): Promise<string[]>
}

const quietly = (lookup: Promise<string[]>) => lookup.catch(() => [] as string[])
const bare = (name: string) => name.toLowerCase().replace(/\.$/, '')

async function addressesOf(resolver: DomainResolver, host: string): Promise<string[]> {
  const [v4, v6] = await Promise.all([quietly(resolver.resolve4(host)), quietly(resolver.resolve6(host))])
  return [...v4, ...v6]
}

/**
 * Resolves the page's custom domain now and says whether it reaches this collector: a CNAME naming
 * the public host, or (an apex domain, which cannot have a CNAME) the same addresses as that host.
 */
export async function checkStatusPageDomain({
  ctx,
  caller,
  input,
  resolver = new dns.Resolver({ timeout: 3000, tries: 1 }),
}: {
  ctx: CollectorContext
  caller: Caller
  /** The host the caller reached the collector at: what to point at when GUARD_PUBLIC_URL is unset. */
  input: { id: string; requestHost: string }
  resolver?: DomainResolver
}): Promise<DomainCheckView> {
  const page = await findAccessRow(ctx.sql, caller, input.id)
  if (!page.custom_domain) throw new GuardError('VALIDATION_ERROR', 'customDomain: the page has no custom domain')
  const domain = page.custom_domain
  const expected = ctx.env.GUARD_PUBLIC_URL ? new URL(ctx.env.GUARD_PUBLIC_URL).hostname : input.requestHost
  const [cname, addresses, expectedAddresses] = await Promise.all([
    quietly(resolver.resolveCname(domain)).then((names) => names.map(bare)),
    addressesOf(resolver, domain),
    addressesOf(resolver, expected),
  ])
  const viaCname = cname.includes(bare(expected))
  const viaAddress = addresses.length > 0 && addresses.every((address) => expectedAddresses.includes(address))
  const pointsAtCollector = viaCname || viaAddress
  const message = viaCname
    ? `${domain} is a CNAME of ${expected}`
    : viaAddress
      ? `${domain} resolves to the addresses of ${expected}`
      : cname.length > 0
        ? `${domain} is a CNAME of ${cname.join(', ')}, not of ${expected}`
        : addresses.length > 0
          ? `${domain} resolves to ${addresses.join(', ')}, not to ${expected}`
          : `${domain} does not resolve yet: add a CNAME record pointing at ${expected}`
  return { customDomain: domain, expected, cname, addresses, pointsAtCollector, message }
}
