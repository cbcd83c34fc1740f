import { type EventOf, newId, truncateText } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import type { EventHandlers, HandlerScope } from '../../ingest/consume-events.ts'
import { isUnderMaintenance } from '../maintenance-windows/find.ts'
import { channelsFor, enqueueDeliveries } from './enqueue.ts'
import { consoleUrl, type Message } from './render.ts'
import type { NotificationView } from './schemas.ts'
import type { SettingsRow } from './settings.ts'

export const NOTIFICATIONS = 'notifications'
/** Plain subject (no stream) on which every replica hears new in-app notifications, for its SSE clients. */
export const LIVE_SUBJECT = 'notifications.live'

export interface LiveNotification {
  organizationId: string
  principal: string
  notification: NotificationView
}

type IncidentEvent = EventOf<'incident.opened' | 'incident.updated' | 'incident.resolved'>

function notificationType(event: IncidentEvent): NotificationView['type'] {
  if (event.type === 'incident.resolved') return 'success'
  if (event.type === 'incident.updated') return 'info'
  return event.data.severity === 'critical' || event.data.severity === 'high' ? 'error' : 'warning'
}

const headline = (event: IncidentEvent) =>
  event.type === 'incident.opened'
    ? `Incident opened: ${event.data.title}`
    : event.type === 'incident.resolved'
      ? `Resolved: ${event.data.title}`
      : `Update: ${event.data.title}`

/**
 * Every recipient of the organization (a principal with settings) gets an in-app notification;
 * their channels get a queued delivery for openings, resolutions and updates people post.
 * Automatic changes of a flapping incident stay in-app, so a bouncing monitor does not page on
 * every bounce. Nothing is raised for a monitor inside a maintenance window.
 */
async function dispatch(ctx: CollectorContext, event: IncidentEvent, scope: HandlerScope): Promise<void> {
  const { tx } = scope
  const at = Date.parse(event.occurredAt)
  if (event.data.monitorId && (await isUnderMaintenance(tx, event.organizationId, event.data.monitorId, at))) return
  const { rows: recipients } = await tx.query<SettingsRow>(
    'SELECT * FROM monitoring.notification_settings WHERE organization_id = $1',
    [event.organizationId],
  )
  const flapping = event.data.automatic && (event.data.flapCount ?? 0) > 0
  const external = !flapping && (event.type !== 'incident.updated' || !event.data.automatic)
  const message: Message = {
    eventId: event.id,
    eventType: event.type,
    occurredAt: event.occurredAt,
    organizationId: event.organizationId,
    title: headline(event),
    text: event.data.message,
    link: consoleUrl(ctx.env, `/incidents/${event.data.incidentId}`),
    data: event.data,
    severity: event.data.severity,
  }
  let queued = 0
  for (const recipient of recipients) {
    const { rows } = await tx.query<{ id: string; created_at: Date }>(
      `INSERT INTO monitoring.notifications (id, organization_id, principal, event_id, type, message, incident_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id, created_at`,
      [
        newId(),
        event.organizationId,
        recipient.principal,
        event.id,
        notificationType(event),
        truncateText(`${message.title}: ${message.text}`, 2000),
        event.data.incidentId,
      ],
    )
    const created = rows[0]
    if (created && recipient.browser_notifications) {
      const live: LiveNotification = {
        organizationId: event.organizationId,
        principal: recipient.principal,
        notification: {
          id: created.id,
          message: truncateText(`${message.title}: ${message.text}`, 2000),
          type: notificationType(event),
          isRead: false,
          createdAt: new Date(created.created_at).toISOString(),
          eventType: event.type,
          incidentId: event.data.incidentId,
        },
      }
      scope.afterCommit.push(() => ctx.bus.emit(LIVE_SUBJECT, new TextEncoder().encode(JSON.stringify(live))))
    }
    if (!external) continue
    const kind = event.data.cause === 'down' ? 'downtime' : 'incident'
    queued += await enqueueDeliveries(tx, ctx.env, recipient, message, channelsFor(ctx.env, recipient, kind))
  }
  if (queued > 0) scope.afterCommit.push(() => void ctx.wake.dispatchEvent(new Event('deliveries')))
}

export function notificationHandlers(ctx: CollectorContext): EventHandlers {
  return {
    'incident.opened': (event, scope) => dispatch(ctx, event, scope),
    'incident.updated': (event, scope) => dispatch(ctx, event, scope),
    'incident.resolved': (event, scope) => dispatch(ctx, event, scope),
  }
}
