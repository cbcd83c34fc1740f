import type { Sql } from '@guard/shared'
import type { CollectorContext } from '../../../context.ts'
import { type Memo, noMemo } from '../../../ingest/consume-events.ts'
import { acknowledgeUrl } from '../alert-of.ts'
import type { ChannelRow } from '../channels/config.ts'
import { CHANNEL_COLUMNS } from '../channels/find.ts'
import { enqueueDelivery, supersedeWaiting } from '../enqueue.ts'
import type { Alert } from '../providers/provider.ts'
import { quietUntil } from './quiet-hours.ts'

export interface ChannelNotice {
  alert: Alert
  channelIds: readonly string[]
  /** Why: event, escalation, reminder. */
  purpose: string
  /** Unique per moment, with the channel: a redelivered event or a retried step queues nothing twice. */
  key: string
  /** Wait this long and replace what still waits for the same incident (a flapping incident). */
  delayMs?: number
  now: Date
}

/**
 * Queues an alert on organization channels. A disabled channel is skipped; inside a channel's
 * quiet hours anything but a critical alert is held for the digest at the end of the period.
 * Returns the channels that will hear of it.
 */
export async function notifyChannels(
  ctx: CollectorContext,
  tx: Sql,
  notice: ChannelNotice,
  memo: Memo = noMemo,
): Promise<string[]> {
  if (notice.channelIds.length === 0) return []
  const organizationId = notice.alert.organizationId
  const enabled = await memo(`channels:${organizationId}`, async () => {
    const { rows } = await tx.query<ChannelRow>(
      `SELECT ${CHANNEL_COLUMNS} FROM monitoring.notification_channels WHERE organization_id = $1 AND enabled`,
      [organizationId],
    )
    return rows
  })
  const wanted = new Set(notice.channelIds)
  const channels = enabled.filter((channel) => wanted.has(channel.id))
  const notified: string[] = []
  for (const channel of channels) {
    const quietEnd = notice.alert.severity === 'critical' ? undefined : quietUntil(channel.quiet_hours, notice.now)
    const delayed = notice.delayMs ? new Date(notice.now.getTime() + notice.delayMs) : undefined
    let alert: Alert = notice.alert
    if (alert.incident && alert.kind !== 'resolved') {
      const link = acknowledgeUrl(
        ctx,
        { id: alert.incident.id, organizationId: alert.organizationId, status: alert.incident.status },
        `channel:${channel.name}`,
      )
      if (link) alert = { ...alert, acknowledgeUrl: link }
    }
    if (delayed && !quietEnd) alert = await supersedeWaiting(tx, `channel:${channel.id}`, channel.provider, alert)
    const id = await enqueueDelivery(tx, ctx.env, {
      organizationId: channel.organization_id,
      principal: `channel:${channel.id}`,
      provider: channel.provider,
      target: channel.name,
      channelId: channel.id,
      ...(alert.incident ? { incidentId: alert.incident.id } : {}),
      purpose: notice.purpose,
      key: notice.key,
      alert,
      ...(quietEnd ? { notBefore: quietEnd, held: true } : delayed ? { notBefore: delayed } : {}),
    })
    if (id) notified.push(channel.id)
  }
  return notified
}

/** The organization channels that already heard of an incident (for acknowledgements and resolutions). */
export async function channelsNotifiedOf(tx: Sql, incidentId: string): Promise<string[]> {
  const { rows } = await tx.query<{ channel_id: string }>(
    `SELECT DISTINCT channel_id FROM monitoring.notification_deliveries
      WHERE incident_id = $1 AND channel_id IS NOT NULL AND status <> 'superseded'`,
    [incidentId],
  )
  return rows.map((row) => row.channel_id)
}
