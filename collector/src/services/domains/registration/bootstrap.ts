import { readFile } from 'node:fs/promises'
import type { Sql } from '@guard/shared'
import { z } from 'zod'

/** The IANA RDAP bootstrap for DNS (RFC 9224): `services` pairs TLD lists with base URL lists. */
export const rdapBootstrap = z.object({
  publication: z.string().max(100).optional(),
  services: z
    .array(z.tuple([z.array(z.string().max(253)).max(10_000), z.array(z.string().max(2048)).max(20)]))
    .min(1)
    .max(10_000),
})
export type RdapBootstrap = z.infer<typeof rdapBootstrap>

const SHIPPED = new URL('../../../../assets/rdap/dns.json', import.meta.url)
let shipped: Promise<RdapBootstrap> | undefined

/** The copy shipped with Guard, read once per process. */
const shippedBootstrap = () => {
  shipped ??= readFile(SHIPPED, 'utf8').then((text) => rdapBootstrap.parse(JSON.parse(text)))
  return shipped
}

/** The bootstrap last fetched from IANA (stored, so every replica uses it), else the shipped copy. */
export async function currentBootstrap(sql: Sql): Promise<RdapBootstrap> {
  const { rows } = await sql.query<{ document: unknown }>(
    'SELECT document FROM monitoring.rdap_bootstrap WHERE document IS NOT NULL',
  )
  const stored = rows[0] ? rdapBootstrap.safeParse(rows[0].document) : undefined
  return stored?.success ? stored.data : shippedBootstrap()
}

/**
 * The RDAP base URL for `domain`: the entry of its longest suffix listed (the bootstrap lists
 * TLDs, and may list deeper labels), preferring https as RFC 9224 asks. Always ends with `/`.
 */
export function rdapServerFor(bootstrap: RdapBootstrap, domain: string): URL | undefined {
  const labels = domain.split('.')
  for (let start = 0; start < labels.length; start += 1) {
    const suffix = labels.slice(start).join('.')
    const entry = bootstrap.services.find(([names]) => names.some((name) => name.toLowerCase() === suffix))
    if (!entry) continue
    const urls = entry[1].flatMap((text) => {
      try {
        const url = new URL(text.endsWith('/') ? text : `${text}/`)
        return url.protocol === 'https:' || url.protocol === 'http:' ? [url] : []
      } catch {
        return []
      }
    })
    return urls.find((url) => url.protocol === 'https:') ?? urls[0]
  }
  return undefined
}
