import { newId, truncateText } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { type EventHandlers, type HandlerScope, noMemo } from '../../ingest/consume-events.ts'
import { isUnderMaintenance } from '../maintenance-windows/find.ts'
import { alertOfEvent, type IncidentEvent } from './alert-of.ts'
import { channelsFor, enqueueDeliveries } from './enqueue.ts'
import { advanceEscalationsOf } from './escalation/advance.ts'
import { startEscalation, stopEscalations } from './escalation/start.ts'
import type { Alert } from './providers/provider.ts'
import { chooseRoutes, routesOf, subjectTags } from './routing/match.ts'
import { channelsNotifiedOf, notifyChannels } from './routing/notify-channels.ts'
import type { NotificationView } from './schemas.ts'
import { ORGANIZATION_FEED, type SettingsRow } from './settings.ts'

export const NOTIFICATIONS = 'notifications'
/** Plain subject (no stream) on which every replica hears new in-app notifications, for its SSE clients. */
export const LIVE_SUBJECT = 'notifications.live'

export interface LiveNotification {
  organizationId: string
  principal: string
  notification: NotificationView
}

function notificationType(event: IncidentEvent): NotificationView['type'] {
  if (event.type === 'incident.resolved') return 'success'
  if (event.type === 'incident.updated' && !event.data.reopened) return 'info'
  return event.data.severity === 'critical' || event.data.severity === 'high' ? 'error' : 'warning'
}

const inAppText = (alert: Alert) =>
  truncateText(
    `${alert.kind === 'opened' ? 'Incident opened: ' : alert.kind === 'reopened' ? 'Down again: ' : alert.kind === 'resolved' ? 'Resolved: ' : 'Update: '}${alert.title}: ${alert.text}`,
    2000,
  )

/** In-app notifications: the organization's feed, and every person who has opened theirs. */
async function notifyInApp(
  ctx: CollectorContext,
  scope: HandlerScope,
  event: IncidentEvent,
  alert: Alert,
  recipients: SettingsRow[],
) {
  const principals = [ORGANIZATION_FEED, ...recipients.map((recipient) => recipient.principal)]
  for (const principal of principals) {
    const { rows } = await scope.tx.query<{ id: string; created_at: Date }>(
      `INSERT INTO monitoring.notifications (id, organization_id, principal, event_id, type, message, incident_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id, created_at`,
      [
        newId(),
        event.organizationId,
        principal,
        event.id,
        notificationType(event),
        inAppText(alert),
        event.data.incidentId,
      ],
    )
    const created = rows[0]
    const recipient = recipients.find((candidate) => candidate.principal === principal)
    if (!created || !recipient?.browser_notifications) continue
    const live: LiveNotification = {
      organizationId: event.organizationId,
      principal,
      notification: {
        id: created.id,
        message: inAppText(alert),
        type: notificationType(event),
        isRead: false,
        createdAt: new Date(created.created_at).toISOString(),
        eventType: event.type,
        incidentId: event.data.incidentId,
      },
    }
    scope.afterCommit.push(() => ctx.bus.emit(LIVE_SUBJECT, new TextEncoder().encode(JSON.stringify(live))))
  }
}

/**
 * Organization channels by route. An opening or a reopening goes to the routes' channels and starts
 * their escalation; an acknowledgement stops the escalation steps; an acknowledgement, a person's
 * update or a resolution goes to every channel that heard of the incident. Automatic updates
 * (a repeated failure) stay in-app.
 */
async function notifyRoutes(
  ctx: CollectorContext,
  scope: HandlerScope,
  event: IncidentEvent,
  alert: Alert,
  delayMs: number,
) {
  const { tx } = scope
  const now = new Date()
  const base = { alert, purpose: 'event', key: event.id, now, ...(delayMs > 0 ? { delayMs } : {}) }
  if (alert.kind === 'opened' || alert.kind === 'reopened') {
    const routes = chooseRoutes(
      await (scope.memo ?? noMemo)(`routes:${event.organizationId}`, () => routesOf(tx, event.organizationId)),
      {
        monitorId: event.data.monitorId,
        monitorKind: event.data.monitorKind,
        tags: await subjectTags(tx, event.data.monitorId, event.data.monitorKind),
        severity: event.data.severity,
        cause: event.data.cause,
        kind: alert.kind,
      },
    )
    let stepDue = false
    for (const route of routes) {
      await notifyChannels(ctx, tx, { ...base, channelIds: route.channel_ids }, scope.memo)
      stepDue = (await startEscalation(tx, event.data.incidentId, route, now)) || stepDue
    }
    if (stepDue) await advanceEscalationsOf(ctx, tx, event.data.incidentId, now)
    return
  }
  if (alert.kind === 'updated' && event.data.automatic) return
  if (alert.kind === 'acknowledged') await stopEscalations(tx, event.data.incidentId, 'acknowledged')
  if (alert.kind === 'resolved') await stopEscalations(tx, event.data.incidentId, 'resolved')
  await notifyChannels(
    ctx,
    tx,
    { ...base, channelIds: await channelsNotifiedOf(tx, event.data.incidentId) },
    scope.memo,
  )
}

/**
 * Every incident event reaches the in-app feeds; openings, reopenings, resolutions and what people
 * post reach the channels. A flapping incident's messages wait GUARD_NOTIFY_FLAP_DELAY_SECONDS and
 * a newer one replaces what still waits, so bounces are batched but the latest state always goes
 * out. Nothing is raised for a monitor inside a maintenance window.
 */
async function dispatch(ctx: CollectorContext, event: IncidentEvent, scope: HandlerScope): Promise<void> {
  const { tx } = scope
  if (
    event.data.monitorId &&
    (await isUnderMaintenance(tx, event.organizationId, event.data.monitorId, Date.parse(event.occurredAt)))
  ) {
    return
  }
  const alert = alertOfEvent(ctx, event)
  const recipientsOf = async () =>
    (
      await tx.query<SettingsRow>('SELECT * FROM monitoring.notification_settings WHERE organization_id = $1', [
        event.organizationId,
      ])
    ).rows
  const recipients = await (scope.memo ?? noMemo)(`recipients:${event.organizationId}`, recipientsOf)
  await notifyInApp(ctx, scope, event, alert, recipients)
  const flapping = event.data.automatic && (event.data.flapCount ?? 0) > 0
  const delayMs = flapping ? ctx.env.GUARD_NOTIFY_FLAP_DELAY_SECONDS * 1000 : 0
  await notifyRoutes(ctx, scope, event, alert, delayMs)
  const external = !(alert.kind === 'updated' && event.data.automatic)
  if (external) {
    const kind = event.data.cause === 'down' ? 'downtime' : 'incident'
    for (const recipient of recipients) {
      await enqueueDeliveries(tx, ctx.env, recipient, alert, channelsFor(ctx.env, recipient, kind), 'event', delayMs)
    }
  }
  // Once per batch: the worker takes every delivery the batch queued in one pass.
  await (scope.memo ?? noMemo)('wake-deliveries', async () => {
    scope.afterCommit.push(() => void ctx.wake.dispatchEvent(new Event('deliveries')))
  })
}

export function notificationHandlers(ctx: CollectorContext): EventHandlers {
  return {
    'incident.opened': (event, scope) => dispatch(ctx, event, scope),
    'incident.updated': (event, scope) => dispatch(ctx, event, scope),
    'incident.resolved': (event, scope) => dispatch(ctx, event, scope),
  }
}
