import type { Logger, Sql } from '@guard/shared'
import type { Mailer } from '../services/invitations/send.ts'
import type { KeyRing } from '../services/keys/key-ring.ts'
import type { Secrets } from '../services/keys/secret-key.ts'
import type { ThrottlePolicy } from '../services/sign-in/throttle.ts'

/** What the OAuth routes and pages work with; built once at start. */
export interface OAuthContext {
  sql: Sql
  log: Logger
  /**
   * The public issuer URL without a trailing slash. When GUARD_IDENTITY_URL is unset it is the
   * listening address, known only after listen, which is why it is a field and not a constant.
   */
  issuer: string
  secrets: Secrets
  keys: KeyRing
  /** Failed sign-in delays and locks (GUARD_SIGN_IN_*). */
  throttle: ThrottlePolicy
  /**
   * The RFC 8707 resources (canonical URLs) access tokens may be issued for. Like `issuer`, a
   * field: under `guard start` the collector's address is known only after identity started.
   */
  resources: string[]
  /** Dynamic client registrations per client IP per hour. */
  registrationLimit: number
  /** Sends invitation e-mails when GUARD_SMTP_URL is set; without it the API answers the link. */
  mailer: Mailer | undefined
  /** GUARD_ALLOW_PRIVATE_TARGETS: upstream sign-in providers may be on private or loopback addresses (and plain http). */
  allowPrivateTargets: boolean
}

/** Session cookies get `Secure` exactly when the public address is https. */
export const isSecureIssuer = (ctx: OAuthContext) => ctx.issuer.startsWith('https:')
