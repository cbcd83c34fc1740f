import { encryptSecret, newId } from '@guard/shared'
import type { CollectorContext } from '../../../context.ts'
import { consoleBaseUrl } from '../../../env.ts'
import { newWebhookSecret } from '../../notifications/providers/webhook/index.ts'
import { vetReceiverUrl } from '../../notifications/settings.ts'
import { pageText } from '../i18n/page-text.ts'
import { checkComponentIds, findPublicPage } from './find-page.ts'
import { queueConfirmation } from './queue.ts'
import { type SubscribeInput, subscribeInput } from './schemas.ts'
import { newConfirmSecret, subscriberLink, unsubscribeToken } from './tokens.ts'

/** Unconfirmed subscriptions are personal data nobody agreed to keep: deleted after this. */
export const UNCONFIRMED_HOURS = 48
/** A pending address gets another confirmation mail at most this often, whoever asks. */
const RESEND_MINUTES = 10

/**
 * A visitor subscribes to a public page. An e-mail address gets a confirmation mail (double
 * opt-in) and the answer is the same whether the address is new, pending or already subscribed,
 * so nobody learns who follows a page. A webhook URL (vetted by the SSRF guard) is subscribed at
 * once, with a signing secret and an unsubscribe link shown only in this answer.
 */
export async function subscribeToStatusPage({
  ctx,
  input,
}: {
  ctx: CollectorContext
  input: { slug: string; subscription: SubscribeInput }
}) {
  const subscription = subscribeInput.parse(input.subscription)
  const page = await findPublicPage(ctx.sql, input.slug)
  const componentIds = await checkComponentIds(ctx.sql, page, subscription.componentIds)
  const base = consoleBaseUrl(ctx.env)
  const text = pageText(page.locale)
  if ('webhookUrl' in subscription) {
    await vetReceiverUrl(ctx, 'webhookUrl', subscription.webhookUrl)
    const id = newId()
    const secret = newWebhookSecret()
    await ctx.sql.query(
      `INSERT INTO monitoring.status_page_subscribers
         (id, page_id, organization_id, kind, target, secret_sealed, component_ids, confirmed_at)
       VALUES ($1, $2, $3, 'webhook', $4, $5, $6, now())`,
      [id, page.id, page.organization_id, subscription.webhookUrl, encryptSecret(ctx.sealKey, secret), componentIds],
    )
    return {
      message: text.text('subscribe.webhook'),
      webhook: {
        secret,
        unsubscribeUrl: subscriberLink(base, page.slug, 'unsubscribe', unsubscribeToken(ctx.sealKey, id)),
      },
    }
  }
  const { secret, hash } = newConfirmSecret()
  const queued = await ctx.sql.transaction(async (tx) => {
    await tx.query(
      `DELETE FROM monitoring.status_page_subscribers
        WHERE page_id = $1 AND confirmed_at IS NULL AND created_at < now() - make_interval(hours => $2)`,
      [page.id, UNCONFIRMED_HOURS],
    )
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO monitoring.status_page_subscribers (id, page_id, organization_id, kind, target, component_ids, confirm_hash)
       VALUES ($1, $2, $3, 'email', $4, $5, $6)
       ON CONFLICT (page_id, target) WHERE kind = 'email' DO UPDATE
          SET confirm_hash = EXCLUDED.confirm_hash, component_ids = EXCLUDED.component_ids, created_at = now()
        WHERE status_page_subscribers.confirmed_at IS NULL
          AND status_page_subscribers.created_at < now() - make_interval(mins => $7)
       RETURNING id`,
      [newId(), page.id, page.organization_id, subscription.email, componentIds, hash, RESEND_MINUTES],
    )
    const id = rows[0]?.id
    if (!id) return false
    await queueConfirmation(
      tx,
      ctx.env,
      { id, organizationId: page.organization_id, email: subscription.email },
      `confirm:${id}:${hash}`,
      {
        type: 'confirm',
        pageName: page.name,
        slug: page.slug,
        title: text.text('confirm.mailTitle', { name: page.name }),
        text: text.text('confirm.mailText'),
        status: 'pending',
        occurredAt: new Date().toISOString(),
        components: [],
        sealedToken: encryptSecret(ctx.sealKey, `${id}.${secret}`),
        locale: page.locale,
      },
    )
    return true
  })
  if (queued) ctx.wake.dispatchEvent(new Event('deliveries'))
  return { message: text.text('subscribe.checkInbox') }
}
