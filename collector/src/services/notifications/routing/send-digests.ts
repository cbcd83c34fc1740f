import type { CollectorContext } from '../../../context.ts'
import { consoleUrl } from '../console-url.ts'
import { enqueueDelivery } from '../enqueue.ts'
import { isProviderId } from '../providers/index.ts'
import { type Alert, alert as alertSchema } from '../providers/provider.ts'

/**
 * At the end of a channel's quiet hours, the alerts it held become one digest delivery; the held
 * rows are marked digested in the same transaction, so a crash repeats the whole step or none.
 */
export async function sendDueDigests(ctx: CollectorContext, now = new Date()): Promise<number> {
  return ctx.sql.transaction(async (tx) => {
    const { rows } = await tx.query<{
      id: string
      organization_id: string
      channel_id: string
      channel: string
      target: string
      payload: string
      next_attempt_at: Date
    }>(
      `SELECT d.id, d.organization_id, d.channel_id, d.channel, d.target, d.payload, d.next_attempt_at
         FROM monitoring.notification_deliveries d
        WHERE d.status = 'held' AND d.next_attempt_at <= $1 AND d.channel_id IS NOT NULL
        ORDER BY d.channel_id, d.created_at LIMIT 1000 FOR UPDATE SKIP LOCKED`,
      [now],
    )
    const byChannel = new Map<string, typeof rows>()
    for (const row of rows) byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row])
    let queued = 0
    for (const [channelId, held] of byChannel) {
      const alerts = held.flatMap((row) => {
        const parsed = alertSchema.safeParse(JSON.parse(row.payload))
        return parsed.success ? [parsed.data] : []
      })
      const first = held[0]!
      if (!isProviderId(first.channel)) continue
      const end = new Date(Math.max(...held.map((row) => new Date(row.next_attempt_at).getTime())))
      const key = `digest:${channelId}:${end.toISOString()}`
      const worst = alerts.some((a) => a.severity === 'high')
        ? 'high'
        : alerts.some((a) => a.severity === 'medium')
          ? 'medium'
          : 'low'
      const digest: Alert = {
        kind: 'digest',
        eventType: 'digest',
        eventId: key,
        organizationId: first.organization_id,
        occurredAt: now.toISOString(),
        title: `${alerts.length} alert${alerts.length === 1 ? '' : 's'} during quiet hours`,
        text: `What happened while this channel was quiet, oldest first.`,
        link: consoleUrl(ctx.env, '/incidents'),
        severity: worst,
        items: alerts.map((a) => ({
          kind: a.kind,
          title: a.title,
          text: a.text,
          occurredAt: a.occurredAt,
          severity: a.severity,
          link: a.link,
        })),
      }
      const id = await enqueueDelivery(tx, ctx.env, {
        organizationId: first.organization_id,
        principal: `channel:${channelId}`,
        provider: first.channel,
        target: first.target,
        channelId,
        purpose: 'digest',
        key,
        alert: digest,
      })
      await tx.query(
        `UPDATE monitoring.notification_deliveries SET status = 'digested', last_error = $2 WHERE id = ANY($1)`,
        [held.map((row) => row.id), id ? `sent in digest ${id}` : 'sent in a digest'],
      )
      if (id) queued += 1
    }
    return queued
  })
}
