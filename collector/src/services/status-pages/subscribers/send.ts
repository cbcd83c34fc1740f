import { decryptSecret, TargetRefusedError } from '@guard/shared'
import type { CollectorContext } from '../../../context.ts'
import { consoleBaseUrl } from '../../../env.ts'
import { classifyHttp, type DeliveryResult, type ProviderIO } from '../../notifications/providers/provider.ts'
import { signWebhook } from '../../notifications/providers/webhook/index.ts'
import { type MessageId, pageText } from '../i18n/page-text.ts'
import { escapeHtml } from '../render-html.ts'
import { SUBSCRIBER_CHANNELS, type SubscriberMessage, subscriberMessage } from './schemas.ts'
import { subscriberLink, unsubscribeToken } from './tokens.ts'

export interface SubscriberDelivery {
  id: string
  principal: string
  channel: string
  target: string
  payload: string
}

const failed = (error: string): DeliveryResult => ({ ok: false, statusCode: null, error, permanent: true })

const SUBJECT = {
  'incident.opened': 'mail.opened',
  'incident.updated': 'mail.updated',
  'incident.resolved': 'mail.resolved',
  'maintenance.scheduled': 'section.maintenance',
  confirm: 'confirm.button',
} satisfies Record<SubscriberMessage['type'], MessageId>

/** A subscriber mail in the page's language (the locale the message was queued with). */
export function mailOf(message: SubscriberMessage, links: { page: string; action: string; unsubscribe?: string }) {
  const text = pageText(message.locale)
  const subject = `[${message.pageName}] ${text.text(SUBJECT[message.type])}: ${message.title}`.slice(0, 250)
  const affects = message.components.length
    ? text.text('mail.affects', { components: text.list(message.components) })
    : ''
  const [label, href] =
    message.type === 'confirm' ? [text.text('confirm.link'), links.action] : [text.text('mail.viewPage'), links.page]
  const unsubscribe = text.text('unsubscribe.button')
  const lines = [
    message.title,
    '',
    ...(message.text ? [message.text, ''] : []),
    ...(affects ? [affects, ''] : []),
    `${label}: ${href}`,
    ...(links.unsubscribe ? ['', `${unsubscribe}: ${links.unsubscribe}`] : []),
    '',
  ]
  const link = (target: string, name: string) => `<a href="${escapeHtml(target)}">${escapeHtml(name)}</a>`
  const html = `<!doctype html><html lang="${text.locale}" dir="${text.dir}"><body style="font-family:sans-serif"><h2>${escapeHtml(message.title)}</h2>${
    message.text ? `<p>${escapeHtml(message.text)}</p>` : ''
  }${affects ? `<p>${escapeHtml(affects)}</p>` : ''}<p>${link(href, label)}</p>${
    links.unsubscribe ? `<p style="color:#666">${link(links.unsubscribe, unsubscribe)}</p>` : ''
  }</body></html>`
  return { subject, text: lines.join('\n'), html }
}

/**
 * Sends one subscriber delivery of the outbox. Mails carry `List-Unsubscribe` with the one-click
 * POST of RFC 8058; webhooks are signed like every Guard webhook (Standard Webhooks) with the
 * subscriber's own secret, and carry the unsubscribe link too.
 */
export async function sendToSubscriber(
  ctx: CollectorContext,
  row: SubscriberDelivery,
  io: ProviderIO,
): Promise<DeliveryResult> {
  try {
    return await send(ctx, row, io)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return {
      ok: false,
      statusCode: null,
      error: message,
      ...(error instanceof TargetRefusedError ? { permanent: true } : {}),
    }
  }
}

async function send(ctx: CollectorContext, row: SubscriberDelivery, io: ProviderIO): Promise<DeliveryResult> {
  const parsed = subscriberMessage.safeParse(JSON.parse(row.payload))
  if (!parsed.success) return failed('not a subscriber message')
  const message = parsed.data
  const subscriberId = row.principal.slice('subscriber:'.length)
  const base = consoleBaseUrl(ctx.env)
  const page = `${base}/status/${message.slug}`
  if (message.type === 'confirm') {
    const token = decryptSecret(ctx.sealKey, message.sealedToken ?? '')
    return io.mail({
      to: [row.target],
      ...mailOf(message, { page, action: subscriberLink(base, message.slug, 'confirm', token) }),
    })
  }
  const unsubscribe = subscriberLink(base, message.slug, 'unsubscribe', unsubscribeToken(ctx.sealKey, subscriberId))
  if (row.channel === SUBSCRIBER_CHANNELS.email) {
    return io.mail({
      to: [row.target],
      ...mailOf(message, { page, action: page, unsubscribe }),
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    })
  }
  const { rows } = await ctx.sql.query<{ secret_sealed: string }>(
    "SELECT secret_sealed FROM monitoring.status_page_subscribers WHERE id = $1 AND kind = 'webhook'",
    [subscriberId],
  )
  if (!rows[0]) return failed('the subscriber has unsubscribed')
  const body = JSON.stringify({
    id: row.id,
    type: `status-page.${message.type}`,
    timestamp: message.occurredAt,
    data: { ...message, pageUrl: page, unsubscribeUrl: unsubscribe },
  })
  const secret = decryptSecret(ctx.sealKey, rows[0].secret_sealed)
  return classifyHttp(
    await io.http({
      method: 'POST',
      url: row.target,
      body,
      headers: { 'content-type': 'application/json', ...signWebhook(secret, io.idempotencyKey, body) },
    }),
  )
}
