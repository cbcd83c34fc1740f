import type { CollectorContext } from '../../../context.ts'

/**
 * Caddy's on-demand TLS `ask`: whether a certificate may be obtained for `domain`. Yes only for
 * the custom domain of a published page, so nobody can make the proxy request certificates for
 * arbitrary names pointed at it.
 */
export async function askCustomDomain({
  ctx,
  input,
}: {
  ctx: CollectorContext
  input: { domain: string }
}): Promise<boolean> {
  const { rows } = await ctx.sql.query('SELECT 1 FROM monitoring.status_pages WHERE custom_domain = $1 AND is_public', [
    input.domain.trim().toLowerCase().replace(/\.$/, ''),
  ])
  return rows.length > 0
}
