import { BlockList, isIP } from 'node:net'
import { z } from 'zod'

export const ACCESS_MODES = ['public', 'password', 'ip', 'members'] as const
export type AccessMode = (typeof ACCESS_MODES)[number]

/** An address or a CIDR range, as net.BlockList takes them. */
const cidr = z
  .string()
  .trim()
  .max(64)
  .refine((value) => {
    const [address = '', bits, ...rest] = value.split('/')
    const family = isIP(address)
    if (!family || rest.length > 0) return false
    if (bits === undefined) return true
    const n = Number(bits)
    return /^\d+$/.test(bits) && n >= 0 && n <= (family === 4 ? 32 : 128)
  }, 'must be an IP address or a CIDR range such as 203.0.113.0/24')

export const updateAccessInput = z
  .object({
    mode: z.enum(ACCESS_MODES).meta({
      description:
        'public: anyone; password: visitors enter the page password; ip: only client addresses in allowList; members: members of the organization signed in to Guard',
    }),
    password: z
      .string()
      .min(8, 'must be at least 8 characters')
      .max(200)
      .optional()
      .meta({ description: 'write-only; required to switch to password mode when none is set yet' }),
    allowList: z
      .array(cidr)
      .max(100)
      .optional()
      .meta({ description: 'addresses or CIDR ranges; required for ip mode' }),
  })
  .strict()
  .refine((input) => input.mode !== 'ip' || (input.allowList?.length ?? 0) > 0, {
    message: 'ip mode needs at least one address or range in allowList',
    path: ['allowList'],
  })
export type UpdateAccessInput = z.input<typeof updateAccessInput>

/** Host names only: no scheme, port, path, IP address, or single label. */
const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
    'must be a host name such as status.example.com (no scheme, port or path)',
  )

export const updateDomainInput = z
  .object({
    customDomain: hostName.nullable().meta({ description: 'the host name the page answers on; null removes it' }),
  })
  .strict()
export type UpdateDomainInput = z.input<typeof updateDomainInput>

export const statusPageAccessView = z.object({
  mode: z.enum(ACCESS_MODES),
  passwordSet: z.boolean().meta({ description: 'whether a password is stored; the password is never returned' }),
  allowList: z.array(z.string()),
  customDomain: z.string().nullable(),
})
export type StatusPageAccessView = z.infer<typeof statusPageAccessView>

export const domainCheckView = z.object({
  customDomain: z.string(),
  expected: z.string().meta({ description: "the collector's public host name the domain should point at" }),
  cname: z.array(z.string()).meta({ description: 'CNAME records found for the domain' }),
  addresses: z.array(z.string()).meta({ description: 'addresses the domain resolves to' }),
  pointsAtCollector: z
    .boolean()
    .meta({ description: 'a CNAME names the public host, or the domain resolves to the same addresses' }),
  message: z.string(),
})
export type DomainCheckView = z.infer<typeof domainCheckView>

export const askQuery = z.object({ domain: z.string().min(1).max(253) })

/** Whether `ip` falls in one of the entries (addresses or CIDR ranges, IPv4 or IPv6). */
export function allowListMatches(allowList: string[], ip: string): boolean {
  const address = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip
  const family = isIP(address)
  if (!family) return false
  const list = new BlockList()
  for (const entry of allowList) {
    const [network = '', bits] = entry.split('/')
    const type = isIP(network) === 6 ? 'ipv6' : 'ipv4'
    if (bits === undefined) list.addAddress(network, type)
    else list.addSubnet(network, Number(bits), type)
  }
  return list.check(address, family === 6 ? 'ipv6' : 'ipv4')
}
