import type { Sql } from '@guard/shared'
import { registrableDomainOfUrl } from './registrable-domain.ts'
import { type RegistrationView, registrationErrorKind } from './schemas.ts'

const DAY_MS = 86_400_000

interface RegistrationRow {
  domain: string
  expires_at: Date | null
  registrar: string | null
  checked_at: Date
  error_kind: string | null
  error_message: string | null
}

/**
 * The cached registration of the domain under `url`, as the API shows it, with the days left
 * counted at `now`; null for a host without a registration or one not looked up yet.
 */
export async function readRegistration(sql: Sql, url: string, now = new Date()): Promise<RegistrationView | null> {
  const domain = registrableDomainOfUrl(url)
  if (!domain) return null
  const { rows } = await sql.query<RegistrationRow>(
    `SELECT domain, expires_at, registrar, checked_at, error_kind, error_message
       FROM monitoring.domain_registrations WHERE domain = $1`,
    [domain],
  )
  const row = rows[0]
  if (!row) return null
  const expiresAt = row.expires_at ? new Date(row.expires_at) : null
  const kind = registrationErrorKind.safeParse(row.error_kind)
  return {
    domain: row.domain,
    expiresAt: expiresAt?.toISOString() ?? null,
    daysLeft: expiresAt ? Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS) : null,
    ...(row.registrar ? { registrar: row.registrar } : {}),
    checkedAt: new Date(row.checked_at).toISOString(),
    ...(row.error_kind && kind.success ? { error: { kind: kind.data, message: row.error_message ?? '' } } : {}),
  }
}
