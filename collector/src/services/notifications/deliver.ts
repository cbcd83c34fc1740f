import { decryptSecret, type Stoppable, truncateText } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import type { EmailBody } from './render.ts'
import type { Channel } from './schemas.ts'
import { createMailer, type Mailer, postJson, type SendOutcome, sendEmail, signWebhook } from './send.ts'
import { openWebhookSecret, type SettingsRow } from './settings.ts'

interface DeliveryRow {
  id: string
  organization_id: string
  principal: string
  channel: Channel
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
      RETURNING id, organization_id, principal, channel, target, payload, attempts, give_up_at`,
    [ctx.env.GUARD_DELIVERY_LEASE_SECONDS, limit],
  )
  return rows
}

async function send(ctx: CollectorContext, mailer: () => Mailer, row: DeliveryRow): Promise<SendOutcome> {
  const options = { allowPrivate: ctx.env.GUARD_ALLOW_PRIVATE_TARGETS, timeoutMs: ctx.env.GUARD_DELIVERY_TIMEOUT_MS }
  if (row.channel === 'email') {
    if (!ctx.env.GUARD_SMTP_URL) return { ok: false, statusCode: null, error: 'GUARD_SMTP_URL is not set' }
    return sendEmail(mailer(), ctx.env.GUARD_SMTP_FROM, row.id, JSON.parse(row.payload) as EmailBody)
  }
  if (row.channel === 'slack') return postJson(decryptSecret(ctx.sealKey, row.target), row.payload, {}, options)
  const { rows } = await ctx.sql.query<Pick<SettingsRow, 'webhook_secret_sealed'>>(
    'SELECT webhook_secret_sealed FROM monitoring.notification_settings WHERE organization_id = $1 AND principal = $2',
    [row.organization_id, row.principal],
  )
  const secret = rows[0] ? openWebhookSecret(ctx, rows[0]) : undefined
  if (!secret) return { ok: false, statusCode: null, error: 'the recipient no longer has a webhook secret' }
  return postJson(row.target, row.payload, signWebhook(secret, row.id, row.payload), options)
}

async function record(ctx: CollectorContext, row: DeliveryRow, outcome: SendOutcome, durationMs: number) {
  const attempt = row.attempts + 1
  const delay = retryDelayMs(attempt, ctx.env.GUARD_DELIVERY_BASE_DELAY_MS, ctx.env.GUARD_DELIVERY_MAX_DELAY_MS)
  const giveUp = !outcome.ok && Date.now() + delay > new Date(row.give_up_at).getTime()
  const status = outcome.ok ? 'delivered' : giveUp ? 'failed' : 'pending'
  await ctx.sql.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO monitoring.notification_attempts (delivery_id, attempt, status_code, error, duration_ms)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [
        row.id,
        attempt,
        outcome.statusCode,
        outcome.error ? truncateText(outcome.error, 1000) : null,
        Math.round(durationMs),
      ],
    )
    await tx.query(
      `UPDATE monitoring.notification_deliveries
          SET status = $2, attempts = $3, last_status_code = $4, last_error = $5, locked_until = NULL,
              next_attempt_at = now() + make_interval(secs => $6::float8 / 1000),
              delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE NULL END
        WHERE id = $1`,
      [row.id, status, attempt, outcome.statusCode, outcome.error ? truncateText(outcome.error, 1000) : null, delay],
    )
  })
}

/** One pass: claims due deliveries (a lease other replicas respect), sends them, records each attempt. */
export async function runDueDeliveries(ctx: CollectorContext, mailer: () => Mailer, limit = 50): Promise<number> {
  const rows = await claim(ctx, limit)
  await Promise.all(
    rows.map(async (row) => {
      const started = performance.now()
      const outcome = await send(ctx, mailer, row)
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
