import { newId, type Sql } from '@guard/shared'
import type { CollectorEnv } from '../../env.ts'
import { emailBody, type Message, slackBody, webhookBody } from './render.ts'
import type { Channel } from './schemas.ts'
import type { SettingsRow } from './settings.ts'

/**
 * Which channels of a recipient receive a message; `downtime` marks monitor-down incidents.
 * A Slack target stays sealed, as in the settings; the worker opens it to send.
 */
export function channelsFor(
  env: Pick<CollectorEnv, 'GUARD_SMTP_URL'>,
  settings: SettingsRow,
  kind: 'downtime' | 'incident' | 'report' | 'test',
): Array<{ channel: Channel; target: string }> {
  const channels: Array<{ channel: Channel; target: string }> = []
  const wantsEmail =
    kind === 'test' ||
    (kind === 'downtime' && settings.email_downtime) ||
    (kind === 'incident' && settings.email_incidents) ||
    (kind === 'report' && settings.email_weekly_reports)
  if (env.GUARD_SMTP_URL && settings.email && settings.email_notifications && wantsEmail) {
    channels.push({ channel: 'email', target: settings.email })
  }
  if (kind === 'report') return channels
  if (settings.webhook_url) channels.push({ channel: 'webhook', target: settings.webhook_url })
  if (settings.slack_enabled && settings.slack_webhook_url) {
    channels.push({ channel: 'slack', target: settings.slack_webhook_url })
  }
  return channels
}

/**
 * Queues one durable delivery per channel in the caller's transaction; a delivery already queued
 * for that event, recipient and channel is kept (a redelivered event queues nothing twice).
 */
export async function enqueueDeliveries(
  tx: Sql,
  env: Pick<CollectorEnv, 'GUARD_DELIVERY_MAX_AGE_SECONDS'>,
  recipient: SettingsRow,
  message: Message,
  channels: Array<{ channel: Channel; target: string }>,
): Promise<number> {
  let queued = 0
  for (const { channel, target } of channels) {
    const payload =
      channel === 'webhook'
        ? webhookBody(message)
        : channel === 'slack'
          ? slackBody(message)
          : emailBody(message, target)
    const { affectedRows } = await tx.query(
      `INSERT INTO monitoring.notification_deliveries
         (id, organization_id, principal, event_id, event_type, channel, target, payload, give_up_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))
       ON CONFLICT (event_id, principal, channel) DO NOTHING`,
      [
        newId(),
        recipient.organization_id,
        recipient.principal,
        message.eventId,
        message.eventType,
        channel,
        target,
        JSON.stringify(payload),
        env.GUARD_DELIVERY_MAX_AGE_SECONDS,
      ],
    )
    queued += affectedRows
  }
  return queued
}
