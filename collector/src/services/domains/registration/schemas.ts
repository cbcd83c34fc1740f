import { z } from 'zod'

/** Why a registration could not be read; a closed set, like a check result's errorKind. */
export const registrationErrorKind = z.enum([
  /** Neither GUARD_RDAP_URL nor the bootstrap names an RDAP server for the domain's TLD. */
  'no_rdap_server',
  /** The RDAP server answered 404: it does not know the domain. */
  'not_found',
  /** Any other answer that is not 2xx. */
  'http_status',
  'timeout',
  'network',
  /** A server from the bootstrap resolves into the private network (README "Domain registration expiry"). */
  'refused_private_target',
  'too_large',
  /** Not JSON, or not an RDAP domain object for the name asked. */
  'malformed',
  /** A valid answer without an `expiration` event: some registries (DENIC) publish none. */
  'no_expiration',
])
export type RegistrationErrorKind = z.infer<typeof registrationErrorKind>

export const registrationView = z
  .object({
    /** The registrable domain looked up, e.g. `example.co.uk` for a monitor of `https://www.example.co.uk/`. */
    domain: z.string(),
    /** The registry's `expiration` event; kept from the last good lookup when a later one failed. */
    expiresAt: z.string().nullable(),
    /** Whole days from now until expiresAt (negative once expired); null without an expiry. */
    daysLeft: z.number().int().nullable(),
    registrar: z.string().optional(),
    /** When RDAP was last asked (lookups are cached a day per domain). */
    checkedAt: z.string(),
    /** Why the last lookup failed; absent when it succeeded. */
    error: z.object({ kind: registrationErrorKind, message: z.string() }).optional(),
  })
  .meta({
    description:
      'Domain registration expiry read over RDAP; null until the registration job looked the domain up, and for IP addresses and reserved names.',
  })
export type RegistrationView = z.infer<typeof registrationView>

/** A lookup that failed, with its kind; the message names the server's host only, never its credentials. */
export class RegistrationFailure extends Error {
  override name = 'RegistrationFailure'
  constructor(
    readonly kind: RegistrationErrorKind,
    message: string,
  ) {
    super(message)
  }
}
