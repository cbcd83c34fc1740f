import { decryptSecret, type Stoppable, TargetRefusedError, truncateText } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { isSubscriberChannel } from '../status-pages/subscribers/schemas.ts'
import { sendToSubscriber } from '../status-pages/subscribers/send.ts'
import { type ChannelRow, openChannelConfig } from './channels/config.ts'
import { CHANNEL_COLUMNS } from './channels/find.ts'
import { sendHttp } from './providers/http.ts'
import { isProviderId, providerOf } from './providers/index.ts'
import {
  type Alert,
  alert as alertSchema,
  type DeliveryResult,
  type NotificationProvider,
  type ProviderIO,
} from './providers/provider.ts'
import { createMailer, type Mailer, sendEmail } from './send.ts'
import { openWebhookSecret, type SettingsRow } from './settings.ts'

interface DeliveryRow {
  id: string
  organization_id: string
  principal: string
  channel: string
  channel_id: string | null
  target: string
  payload: string
  attempts: number
  give_up_at: Date
}

/** Exponential backoff with equal jitter: half the delay fixed, half random, capped. */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const delay = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(delay / 2 + random() * (delay / 2))
}

async function claim(ctx: CollectorContext, limit: number): Promise<DeliveryRow[]> {
  const { rows } = await ctx.sql.query<DeliveryRow>(
    `UPDATE monitoring.notification_deliveries SET locked_until = now() + make_interval(secs => $1)
      WHERE id IN (SELECT id FROM monitoring.notification_deliveries
                    WHERE status = 'pending' AND next_attempt_at <= now()
                      AND (locked_until IS NULL OR locked_until < now())
                    ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING id, organization_id, principal, channel, channel_id, target, payload, attempts, give_up_at`,
    [ctx.env.GUARD_DELIVERY_LEASE_SECONDS, limit],
  )
  return rows
}

const failed = (error: string, permanent = false): DeliveryResult => ({
  ok: false,
  statusCode: null,
  error,
  ...(permanent ? { permanent } : {}),
})

/** The settings a delivery is sent with: its organization channel's, or the person's own. */
async function configOf(
  ctx: CollectorContext,
  row: DeliveryRow,
  channels: Map<string, ChannelRow>,
): Promise<Record<string, unknown> | DeliveryResult> {
  if (row.channel_id) {
    const channel = channels.get(row.channel_id)
    if (!channel) return failed('the channel was deleted', true)
    if (!channel.enabled) return failed('the channel is disabled', true)
    return openChannelConfig(ctx, channel)
  }
  if (row.channel === 'email') return { addresses: [row.target] }
  if (row.channel === 'slack') return { webhookUrl: decryptSecret(ctx.sealKey, row.target) }
  const { rows } = await ctx.sql.query<Pick<SettingsRow, 'webhook_secret_sealed'>>(
    'SELECT webhook_secret_sealed FROM monitoring.notification_settings WHERE organization_id = $1 AND principal = $2',
    [row.organization_id, row.principal],
  )
  const secret = rows[0] ? openWebhookSecret(ctx, rows[0]) : undefined
  if (!secret) return failed('the recipient no longer has a webhook secret', true)
  return { url: row.target, secret }
}

function readAlert(payload: string): Alert | undefined {
  const parsed = alertSchema.safeParse(JSON.parse(payload))
  return parsed.success ? parsed.data : undefined
}

async function send(
  ctx: CollectorContext,
  mailer: () => Mailer,
  row: DeliveryRow,
  channels: Map<string, ChannelRow>,
): Promise<DeliveryResult> {
  if (isSubscriberChannel(row.channel)) return sendToSubscriber(ctx, row, providerIO(ctx, mailer, row.id))
  if (!isProviderId(row.channel)) return failed(`no provider ${row.channel} in this version`, true)
  const alert = readAlert(row.payload)
  // Queued by a version before providers: its rendered body is gone with that version's code.
  if (!alert) return failed('queued before the upgrade to channel providers; not sent', true)
  const config = await configOf(ctx, row, channels)
  if ('ok' in config && typeof config.ok === 'boolean') return config as DeliveryResult
  return sendWithProvider(providerOf(row.channel), alert, config, providerIO(ctx, mailer, row.id))
}

/** What the outbox lets a provider do: HTTP through the SSRF guard, e-mail through the operator's server. */
export const providerIO = (ctx: CollectorContext, mailer: () => Mailer, idempotencyKey: string): ProviderIO => ({
  http: (request) =>
    sendHttp(request, {
      allowPrivate: ctx.env.GUARD_ALLOW_PRIVATE_TARGETS,
      timeoutMs: ctx.env.GUARD_DELIVERY_TIMEOUT_MS,
    }),
  mail: async (email) => {
    if (!ctx.env.GUARD_SMTP_URL) return failed('GUARD_SMTP_URL is not set', true)
    return sendEmail(mailer(), ctx.env.GUARD_SMTP_FROM, idempotencyKey, email)
  },
  idempotencyKey,
})

/** A provider never throws at the outbox: a network failure is retried, a refused target is not. */
export async function sendWithProvider(
  provider: NotificationProvider,
  alert: Alert,
  config: Record<string, unknown>,
  io: ProviderIO,
): Promise<DeliveryResult> {
  try {
    return await provider.send(alert, config, io)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return failed(message, error instanceof TargetRefusedError)
  }
}

/**
 * Records an attempt. The service's own `Retry-After` wins over the backoff; a permanent failure
 * (the service refused the configuration) ends the delivery and marks its channel failing, which
 * the console shows, instead of retrying until the delivery's maximum age.
 */
async function record(ctx: CollectorContext, row: DeliveryRow, outcome: DeliveryResult, durationMs: number) {
  const attempt = row.attempts + 1
  const backoff = retryDelayMs(attempt, ctx.env.GUARD_DELIVERY_BASE_DELAY_MS, ctx.env.GUARD_DELIVERY_MAX_DELAY_MS)
  const delay = !outcome.ok && outcome.retryAfterMs !== undefined ? Math.max(1000, outcome.retryAfterMs) : backoff
  const error = outcome.ok ? null : truncateText(outcome.error, 1000)
  const giveUp = !outcome.ok && (outcome.permanent || Date.now() + delay > new Date(row.give_up_at).getTime())
  const status = outcome.ok ? 'delivered' : giveUp ? 'failed' : 'pending'
  const permanent = !outcome.ok && outcome.permanent === true
  // One statement, so one round trip and atomic without a transaction: the attempt, the delivery,
  // and (when the delivery is settled) its channel's last delivery and state.
  await ctx.sql.query(
    `WITH attempt AS (
       INSERT INTO monitoring.notification_attempts (delivery_id, attempt, status_code, error, duration_ms)
       VALUES ($1, $3, $4, $5, $7) ON CONFLICT DO NOTHING
     ), delivery AS (
       UPDATE monitoring.notification_deliveries
          SET status = $2, attempts = $3, last_status_code = $4, last_error = $5, locked_until = NULL,
              next_attempt_at = now() + make_interval(secs => $6::float8 / 1000),
              delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE NULL END
        WHERE id = $1
     )
     UPDATE monitoring.notification_channels
        SET last_delivery_at = now(), last_delivery_status = $2,
            state = CASE WHEN $2 = 'delivered' THEN 'ok' WHEN $9 THEN 'failing' ELSE state END,
            state_reason = CASE WHEN $2 = 'delivered' THEN NULL WHEN $9 THEN $5 ELSE state_reason END
      WHERE id = $8 AND $2 <> 'pending'`,
    [row.id, status, attempt, outcome.statusCode, error, delay, Math.round(durationMs), row.channel_id, permanent],
  )
}

/** One pass: claims due deliveries (a lease other replicas respect), sends them, records each attempt. */
export async function runDueDeliveries(ctx: CollectorContext, mailer: () => Mailer, limit = 50): Promise<number> {
  const rows = await claim(ctx, limit)
  const channelIds = [...new Set(rows.flatMap((row) => (row.channel_id ? [row.channel_id] : [])))]
  const channels = new Map<string, ChannelRow>()
  if (channelIds.length > 0) {
    const { rows: found } = await ctx.sql.query<ChannelRow>(
      `SELECT ${CHANNEL_COLUMNS} FROM monitoring.notification_channels WHERE id = ANY($1)`,
      [channelIds],
    )
    for (const channel of found) channels.set(channel.id, channel)
  }
  await Promise.all(
    rows.map(async (row) => {
      const started = performance.now()
      const outcome = await send(ctx, mailer, row, channels)
      await record(ctx, row, outcome, performance.now() - started)
    }),
  )
  return rows.length
}

/**
 * The delivery worker: runs passes until nothing is due, then waits for the poll interval or a
 * 'deliveries' wake-up. Each delivery is a row, so a killed collector's claimed deliveries are
 * sent by whoever runs after its lease expires; a delivered one is never claimed again.
 */
export function startDeliveryWorker(ctx: CollectorContext): Stoppable {
  let stopped = false
  let mailer: Mailer | undefined
  const getMailer = () => {
    mailer ??= createMailer(ctx.env.GUARD_SMTP_URL!)
    return mailer
  }
  let wakeUp: (() => void) | undefined
  const onWake = () => wakeUp?.()
  ctx.wake.addEventListener('deliveries', onWake)
  const loop = (async () => {
    while (!stopped) {
      try {
        while (!stopped && (await runDueDeliveries(ctx, getMailer)) > 0) {}
      } catch (error) {
        ctx.log.warn({ err: error }, 'delivery pass failed, will retry')
      }
      if (stopped) break
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ctx.env.GUARD_DELIVERY_POLL_MS)
        wakeUp = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      wakeUp = undefined
    }
  })()
  return {
    async stop() {
      stopped = true
      ctx.wake.removeEventListener('deliveries', onWake)
      wakeUp?.()
      await loop
      mailer?.close()
    },
  }
}
