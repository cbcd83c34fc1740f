import type { CollectorContext } from '../../../context.ts'
import { forgetSubscribers } from './queue.ts'
import { isUnsubscribeToken } from './tokens.ts'

/**
 * Follows an unsubscribe link (the page's button or a mail client's one-click POST, RFC 8058):
 * the subscriber and its queued messages are deleted. True when the link was good, even when it
 * was already used: a mail client may retry, and the answer must not tell a stranger anything.
 */
export async function unsubscribeSubscriber({
  ctx,
  input,
}: {
  ctx: CollectorContext
  input: { slug: string; token: string }
}): Promise<boolean> {
  const id = isUnsubscribeToken(ctx.sealKey, input.token)
  if (!id) return false
  await ctx.sql.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `SELECT s.id FROM monitoring.status_page_subscribers s JOIN monitoring.status_pages p ON p.id = s.page_id
        WHERE s.id = $1 AND p.slug = $2`,
      [id, input.slug],
    )
    await forgetSubscribers(
      tx,
      rows.map((row) => row.id),
    )
  })
  return true
}
