import type { CollectorContext } from '../../../context.ts'
import { UNCONFIRMED_HOURS } from './subscribe.ts'
import { hashSecret, sameSecret, splitToken } from './tokens.ts'

/**
 * Follows a confirmation link: true once the subscription of that page is confirmed. The token is
 * single-use (its hash is cleared) and compared in constant time; an expired, used, unknown or
 * other page's token is false, all alike.
 */
export async function confirmSubscription({
  ctx,
  input,
}: {
  ctx: CollectorContext
  input: { slug: string; token: string }
}): Promise<boolean> {
  const parts = splitToken(input.token)
  if (!parts) return false
  return ctx.sql.transaction(async (tx) => {
    const { rows } = await tx.query<{ confirm_hash: string }>(
      `SELECT s.confirm_hash FROM monitoring.status_page_subscribers s
         JOIN monitoring.status_pages p ON p.id = s.page_id
        WHERE s.id = $1 AND p.slug = $2 AND s.confirm_hash IS NOT NULL
          AND s.created_at > now() - make_interval(hours => $3)
        FOR UPDATE OF s`,
      [parts.id, input.slug, UNCONFIRMED_HOURS],
    )
    const row = rows[0]
    if (!row || !sameSecret(hashSecret(parts.secret), row.confirm_hash)) return false
    await tx.query(
      'UPDATE monitoring.status_page_subscribers SET confirm_hash = NULL, confirmed_at = now() WHERE id = $1',
      [parts.id],
    )
    return true
  })
}

/** Whether a confirmation link is still good, without using it (the page that shows the button). */
export async function isConfirmable({ ctx, input }: { ctx: CollectorContext; input: { slug: string; token: string } }) {
  const parts = splitToken(input.token)
  if (!parts) return false
  const { rows } = await ctx.sql.query<{ confirm_hash: string }>(
    `SELECT s.confirm_hash FROM monitoring.status_page_subscribers s
       JOIN monitoring.status_pages p ON p.id = s.page_id
      WHERE s.id = $1 AND p.slug = $2 AND s.confirm_hash IS NOT NULL
        AND s.created_at > now() - make_interval(hours => $3)`,
    [parts.id, input.slug, UNCONFIRMED_HOURS],
  )
  return rows[0] !== undefined && sameSecret(hashSecret(parts.secret), rows[0].confirm_hash)
}
