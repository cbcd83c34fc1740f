import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'
import { consoleUrl } from '../console-url.ts'
import { providerIO, sendWithProvider } from '../deliver.ts'
import { providerOf } from '../providers/index.ts'
import type { DeliveryResult } from '../providers/provider.ts'
import { createMailer, type Mailer } from '../send.ts'
import { openChannelConfig } from './config.ts'
import { findChannel } from './find.ts'

/**
 * Sends a test message to a channel now (not through the outbox, so the answer is the service's)
 * and records the outcome as the channel's state, as a delivery would.
 */
export async function testChannel({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}): Promise<DeliveryResult & { channelId: string }> {
  const channel = await findChannel(ctx.sql, caller.organizationIds, input.id)
  let mailer: Mailer | undefined
  const key = `test:${newId()}`
  const outcome = await sendWithProvider(
    providerOf(channel.provider),
    {
      kind: 'test',
      eventType: 'notification.test',
      eventId: key,
      organizationId: channel.organization_id,
      occurredAt: new Date().toISOString(),
      title: `Guard test message for ${channel.name}`,
      text: 'This is a test message: this channel is set up correctly.',
      link: consoleUrl(ctx.env, '/settings/notifications'),
      severity: 'low',
    },
    openChannelConfig(ctx, channel),
    providerIO(
      ctx,
      () => {
        mailer ??= createMailer(ctx.env.GUARD_SMTP_URL!)
        return mailer
      },
      key,
    ),
  ).finally(() => mailer?.close())
  await ctx.sql.query(
    `UPDATE monitoring.notification_channels
        SET last_delivery_at = now(), last_delivery_status = $2,
            state = CASE WHEN $3 THEN 'ok' WHEN $4 THEN 'failing' ELSE state END,
            state_reason = CASE WHEN $3 THEN NULL WHEN $4 THEN $5 ELSE state_reason END
      WHERE id = $1`,
    [
      channel.id,
      outcome.ok ? 'delivered' : 'failed',
      outcome.ok,
      !outcome.ok && outcome.permanent === true,
      outcome.ok ? null : outcome.error.slice(0, 1000),
    ],
  )
  return { ...outcome, channelId: channel.id }
}
