import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { z } from 'zod'
import { defineHttpProvider, httpUrl } from '../provider.ts'

/** Standard Webhooks headers for one attempt: the id stays the same across retries, so receivers can dedupe. */
export function signWebhook(secret: string, messageId: string, body: string, at = new Date()): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  }
}

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`

export const webhookSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/=]{20,}$/, 'must be a Standard Webhooks secret (whsec_ and base64)')

/**
 * The Standard Webhooks body: event id, type, time, organization, the event's data as is, and the
 * alert as Guard words it (kind, title, text, links).
 */
export const webhookBody = (alert: import('../provider.ts').Alert) => ({
  id: alert.eventId,
  type: alert.eventType,
  timestamp: alert.occurredAt,
  organizationId: alert.organizationId,
  data: alert.data ?? null,
  alert: {
    kind: alert.kind,
    title: alert.title,
    text: alert.text,
    severity: alert.severity,
    link: alert.link,
    ...(alert.incident ? { incident: alert.incident } : {}),
    ...(alert.acknowledgeUrl ? { acknowledgeUrl: alert.acknowledgeUrl } : {}),
    ...(alert.items ? { items: alert.items } : {}),
  },
})

export const webhook = defineHttpProvider({
  id: 'webhook',
  label: 'Webhook (Standard Webhooks)',
  description: 'JSON of every alert, signed with the Standard Webhooks scheme (webhook-id, -timestamp, -signature).',
  config: z.strictObject({
    url: httpUrl.describe('Receives a POST per alert'),
    secret: webhookSecret.describe('The signing secret (whsec_…); generated when omitted at creation'),
  }),
  secretFields: ['secret'],
  urlFields: ['url'],
  generateSecrets: () => ({ secret: newWebhookSecret() }),
  request(alert, config, io) {
    const body = JSON.stringify(webhookBody(alert))
    return {
      method: 'POST',
      url: config.url,
      body,
      headers: { 'content-type': 'application/json', ...signWebhook(config.secret, io.idempotencyKey, body) },
    }
  },
})
