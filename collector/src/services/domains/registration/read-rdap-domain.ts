import { truncateText } from '@guard/shared'
import { z } from 'zod'
import { RegistrationFailure } from './schemas.ts'

/** The parts of an RDAP domain object (RFC 9083 §5.3) Guard reads; everything else is ignored. */
const rdapDomain = z.object({
  objectClassName: z.literal('domain'),
  ldhName: z.string().max(253).optional(),
  events: z
    .array(z.object({ eventAction: z.string().max(100), eventDate: z.string().max(100) }))
    .max(1000)
    .default([]),
  entities: z
    .array(z.object({ roles: z.array(z.string().max(100)).max(50).default([]), vcardArray: z.unknown().optional() }))
    .max(1000)
    .default([]),
})

export interface RdapRegistration {
  expiresAt: string | undefined
  registrar: string | undefined
}

/** The `fn` (formatted name) of a jCard (RFC 7095): `["vcard", [["fn", {}, "text", "Name"], …]]`. */
function formattedName(vcard: unknown): string | undefined {
  if (!Array.isArray(vcard) || vcard[0] !== 'vcard' || !Array.isArray(vcard[1])) return undefined
  const property = (vcard[1] as unknown[]).find((entry) => Array.isArray(entry) && entry[0] === 'fn') as
    | unknown[]
    | undefined
  const value = property?.[3]
  return typeof value === 'string' && value.trim() !== '' ? truncateText(value.trim(), 500) : undefined
}

/**
 * The expiry and registrar of an RDAP answer about `domain`: the `expiration` event and the `fn`
 * of the entity in the `registrar` role. An answer that is not a domain object, or one about
 * another name, is `malformed`.
 */
export function readRdapDomain(body: unknown, domain: string): RdapRegistration {
  const parsed = rdapDomain.safeParse(body)
  if (!parsed.success) throw new RegistrationFailure('malformed', 'the answer is not an RDAP domain object')
  const { ldhName, events, entities } = parsed.data
  if (ldhName !== undefined && ldhName.toLowerCase().replace(/\.$/, '') !== domain)
    throw new RegistrationFailure('malformed', `the answer is about ${truncateText(ldhName, 253)}, not ${domain}`)
  const expiration = events.find((event) => event.eventAction === 'expiration')
  const expiresMs = expiration ? Date.parse(expiration.eventDate) : Number.NaN
  if (expiration && !Number.isFinite(expiresMs))
    throw new RegistrationFailure('malformed', 'the expiration event carries no valid date')
  const registrar = entities.find((entity) => entity.roles.includes('registrar'))
  return {
    expiresAt: expiration ? new Date(expiresMs).toISOString() : undefined,
    registrar: registrar ? formattedName(registrar.vcardArray) : undefined,
  }
}
