import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { consoleUrl } from './console-url.ts'
import { channelsFor, enqueueDeliveries } from './enqueue.ts'
import { ensureSettings } from './settings.ts'

/** Queues a test message on each channel the caller configured; the delivery log shows how it went. */
export async function sendTestNotification(ctx: CollectorContext, caller: Caller) {
  const settings = await ensureSettings(ctx.sql, caller)
  const eventId = `notification.test:${newId()}`
  const channels = channelsFor(ctx.env, settings, 'test')
  const now = new Date().toISOString()
  await ctx.sql.transaction((tx) =>
    enqueueDeliveries(
      tx,
      ctx.env,
      settings,
      {
        kind: 'test',
        severity: 'low',
        eventId,
        eventType: 'notification.test',
        occurredAt: now,
        organizationId: settings.organization_id,
        title: 'Guard test notification',
        text: 'This is a test message: this channel is set up correctly.',
        link: consoleUrl(ctx.env, '/settings/notifications'),
        data: { test: true },
      },
      channels,
    ),
  )
  ctx.wake.dispatchEvent(new Event('deliveries'))
  return { eventId, channels: channels.map((entry) => entry.channel) }
}
