import type { CollectorContext } from '../../../context.ts'
import { rdapBootstrap } from './bootstrap.ts'
import { fetchJson } from './fetch-json.ts'
import { RegistrationFailure } from './schemas.ts'

const DAY_MS = 86_400_000
/** IANA's file is about 100 kB; ten times that is not a bootstrap. */
const MAX_BYTES = 1024 * 1024

export type BootstrapRefresh = 'refreshed' | 'not-due' | 'not-used' | 'failed'

/**
 * Fetches the RDAP bootstrap from GUARD_RDAP_BOOTSTRAP_URL once a day and stores it for every
 * replica. An attempt is recorded before it is made, so an install that cannot reach IANA tries
 * once a day, not at every tick, and keeps what it had. Nothing happens with GUARD_RDAP_URL set.
 */
export async function refreshBootstrap(ctx: CollectorContext, now: Date): Promise<BootstrapRefresh> {
  if (ctx.env.GUARD_RDAP_URL) return 'not-used'
  const { rows } = await ctx.sql.query(
    `INSERT INTO monitoring.rdap_bootstrap (id, attempted_at) VALUES (true, $1)
     ON CONFLICT (id) DO UPDATE SET attempted_at = excluded.attempted_at
       WHERE monitoring.rdap_bootstrap.attempted_at <= $1::timestamptz - make_interval(secs => $2::double precision / 1000)
     RETURNING id`,
    [now.toISOString(), DAY_MS],
  )
  if (rows.length === 0) return 'not-due'
  const source = new URL(ctx.env.GUARD_RDAP_BOOTSTRAP_URL)
  try {
    const { status, body } = await fetchJson(source, {
      accept: 'application/json',
      timeoutMs: ctx.env.GUARD_RDAP_TIMEOUT_MS,
      maxBytes: MAX_BYTES,
    })
    if (status !== 200) throw new RegistrationFailure('http_status', `${source.host} answered ${status}`)
    const parsed = rdapBootstrap.safeParse(body)
    if (!parsed.success) throw new RegistrationFailure('malformed', `${source.host} answered no RDAP bootstrap`)
    await ctx.sql.query('UPDATE monitoring.rdap_bootstrap SET document = $1, fetched_at = $2', [
      JSON.stringify(parsed.data),
      now.toISOString(),
    ])
    ctx.log.info(
      { services: parsed.data.services.length, publication: parsed.data.publication },
      'RDAP bootstrap refreshed',
    )
    return 'refreshed'
  } catch (error) {
    if (!(error instanceof RegistrationFailure)) throw error
    ctx.log.warn({ reason: error.message }, 'RDAP bootstrap not refreshed; the one in use stays until tomorrow')
    return 'failed'
  }
}
