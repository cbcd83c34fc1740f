import type { CollectorContext } from '../../../context.ts'
import type { RdapBootstrap } from './bootstrap.ts'
import { lookUpRegistration } from './look-up.ts'

const DAY_MS = 86_400_000
/** A failed lookup is tried again sooner than a good one is refreshed: most failures are passing. */
const RETRY_AFTER_FAILURE_MS = 3_600_000
/** Lookups at once: RDAP servers rate-limit, and a run has all day. */
const CONCURRENCY = 4
/** Lookups per run; the rest wait for the next tick, so one run stays short. */
const MAX_PER_RUN = 500

/**
 * The domains among `domains` whose cached registration is due: never looked up, older than a
 * day, or failed more than an hour ago; never looked up first, then the oldest.
 */
async function dueDomains(ctx: CollectorContext, domains: string[], now: Date): Promise<string[]> {
  if (domains.length === 0) return []
  const { rows } = await ctx.sql.query<{ domain: string }>(
    `SELECT d.domain FROM unnest($1::text[]) AS d(domain)
       LEFT JOIN monitoring.domain_registrations r ON r.domain = d.domain
      WHERE r.domain IS NULL
         OR r.checked_at <= $2::timestamptz - make_interval(secs => $3::double precision / 1000)
         OR (r.error_kind IS NOT NULL AND r.checked_at <= $2::timestamptz - make_interval(secs => $4::double precision / 1000))
      ORDER BY r.checked_at NULLS FIRST, d.domain
      LIMIT $5`,
    [domains, now.toISOString(), DAY_MS, RETRY_AFTER_FAILURE_MS, MAX_PER_RUN],
  )
  return rows.map((row) => row.domain)
}

/**
 * Looks up every due domain over RDAP and stores the answer in the per-domain cache that every
 * replica reads. A failed lookup keeps the expiry and registrar of the last good one and records
 * why it failed. Returns the domains looked up.
 */
export async function refreshRegistrations(
  ctx: CollectorContext,
  bootstrap: RdapBootstrap,
  domains: string[],
  now: Date,
): Promise<string[]> {
  const due = await dueDomains(ctx, [...new Set(domains)], now)
  const queue = [...due]
  const worker = async () => {
    for (let domain = queue.shift(); domain !== undefined; domain = queue.shift()) {
      const outcome = await lookUpRegistration(ctx.env, bootstrap, domain)
      await ctx.sql.query(
        `INSERT INTO monitoring.domain_registrations AS r
           (domain, expires_at, registrar, checked_at, error_kind, error_message)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (domain) DO UPDATE SET
           expires_at = coalesce(excluded.expires_at, r.expires_at),
           registrar = coalesce(excluded.registrar, r.registrar),
           checked_at = excluded.checked_at,
           error_kind = excluded.error_kind,
           error_message = excluded.error_message`,
        [
          domain,
          outcome.expiresAt ?? null,
          outcome.registrar ?? null,
          now.toISOString(),
          outcome.error?.kind ?? null,
          outcome.error?.message ?? null,
        ],
      )
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker))
  return due
}
