import { newId, type Sql } from '@guard/shared'
import type { CollectorEnv } from '../../env.ts'
import type { ProviderId } from './providers/index.ts'
import { type Alert, alert as alertSchema } from './providers/provider.ts'
import type { SettingsRow } from './settings.ts'

/** A person's own channel from their settings: the target is the address, URL, or sealed Slack URL. */
export interface PersonalChannel {
  channel: 'email' | 'webhook' | 'slack'
  target: string
}

/**
 * Which of a person's own channels receive a message; `downtime` marks monitor-down incidents.
 * E-mail needs an SMTP server, an address and the e-mail switch on.
 */
export function channelsFor(
  env: Pick<CollectorEnv, 'GUARD_SMTP_URL'>,
  settings: SettingsRow,
  kind: 'downtime' | 'incident' | 'report' | 'test',
): PersonalChannel[] {
  const channels: PersonalChannel[] = []
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

export interface QueuedDelivery {
  organizationId: string
  /** The person for their own channels, `channel:<id>` for an organization channel. */
  principal: string
  provider: ProviderId
  target: string
  channelId?: string
  incidentId?: string
  /** Why it was sent: event, escalation, reminder, digest, test, report. */
  purpose: string
  /** With principal and provider, what makes a redelivered event queue nothing twice. */
  key: string
  alert: Alert
  /** Held until then (quiet hours) or delayed until then (a flapping incident). */
  notBefore?: Date
  held?: boolean
}

/** Queues one durable delivery in the caller's transaction; the same key queued before is kept. */
export async function enqueueDelivery(
  tx: Sql,
  env: Pick<CollectorEnv, 'GUARD_DELIVERY_MAX_AGE_SECONDS'>,
  delivery: QueuedDelivery,
): Promise<string | undefined> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO monitoring.notification_deliveries
       (id, organization_id, principal, event_id, event_type, channel, target, payload, give_up_at, channel_id,
        incident_id, purpose, status, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($13::timestamptz, now()) + make_interval(secs => $9), $10, $11,
             $12, $14, coalesce($13::timestamptz, now()))
     ON CONFLICT (event_id, principal, channel) DO NOTHING RETURNING id`,
    [
      newId(),
      delivery.organizationId,
      delivery.principal,
      delivery.key,
      delivery.alert.eventType,
      delivery.provider,
      delivery.target,
      JSON.stringify(delivery.alert),
      env.GUARD_DELIVERY_MAX_AGE_SECONDS,
      delivery.channelId ?? null,
      delivery.incidentId ?? null,
      delivery.purpose,
      delivery.notBefore ?? null,
      delivery.held ? 'held' : 'pending',
    ],
  )
  return rows[0]?.id
}

const digestItem = (alert: Alert) => ({
  kind: alert.kind,
  title: alert.title,
  text: alert.text,
  occurredAt: alert.occurredAt,
  severity: alert.severity,
  link: alert.link,
})

/**
 * Messages still waiting for the same incident on a channel are replaced by one message: the
 * latest of them by occurrence (events may be handled out of order) carrying the others as its
 * history. The latest state always goes out; the bounces before it are batched, not lost.
 */
export async function supersedeWaiting(tx: Sql, principal: string, provider: string, alert: Alert): Promise<Alert> {
  if (!alert.incident) return alert
  const { rows } = await tx.query<{ payload: string }>(
    `UPDATE monitoring.notification_deliveries SET status = 'superseded', locked_until = NULL
      WHERE principal = $1 AND channel = $3 AND incident_id = $2 AND status = 'pending' AND attempts = 0
        AND next_attempt_at > now() AND (locked_until IS NULL OR locked_until < now())
      RETURNING payload`,
    [principal, alert.incident.id, provider],
  )
  if (rows.length === 0) return alert
  const waiting = rows.flatMap((row) => {
    const parsed = alertSchema.safeParse(JSON.parse(row.payload))
    return parsed.success ? [parsed.data] : []
  })
  const all = [alert, ...waiting].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt))
  const latest = all.at(-1)!
  const history = all
    .flatMap((each) => [...(each.items ?? []), ...(each === latest ? [] : [digestItem(each)])])
    .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt))
  return { ...latest, eventId: alert.eventId, items: history }
}

/** Queues an alert on each of a person's own channels; a delayed one replaces what still waits. */
export async function enqueueDeliveries(
  tx: Sql,
  env: Pick<CollectorEnv, 'GUARD_DELIVERY_MAX_AGE_SECONDS'>,
  recipient: SettingsRow,
  alert: Alert,
  channels: PersonalChannel[],
  purpose = 'event',
  delayMs = 0,
): Promise<number> {
  let queued = 0
  for (const { channel, target } of channels) {
    const current = delayMs > 0 ? await supersedeWaiting(tx, recipient.principal, channel, alert) : alert
    const id = await enqueueDelivery(tx, env, {
      organizationId: recipient.organization_id,
      principal: recipient.principal,
      provider: channel,
      target,
      ...(alert.incident ? { incidentId: alert.incident.id } : {}),
      purpose,
      key: alert.eventId,
      alert: current,
      ...(delayMs > 0 ? { notBefore: new Date(Date.now() + delayMs) } : {}),
    })
    if (id) queued += 1
  }
  return queued
}
