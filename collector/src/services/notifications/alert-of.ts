import type { EventOf, IncidentEventData } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { collectorPublicUrl } from '../../env.ts'
import { signAcknowledgeToken } from '../incidents/acknowledge-link.ts'
import type { IncidentRow } from '../incidents/find.ts'
import { consoleUrl } from './console-url.ts'
import type { Alert, AlertKind } from './providers/provider.ts'

export type IncidentEvent = EventOf<'incident.opened' | 'incident.updated' | 'incident.resolved'>

/** The moment in the incident's life an event is: a reopening is a new outage, not an update. */
export function alertKindOf(event: IncidentEvent): AlertKind {
  if (event.type === 'incident.opened') return 'opened'
  if (event.type === 'incident.resolved') return 'resolved'
  if (event.data.reopened) return 'reopened'
  if (event.data.status === 'acknowledged' && !event.data.automatic) return 'acknowledged'
  return 'updated'
}

interface IncidentFacts {
  id: string
  organizationId: string
  title: string
  status: string
  severity: IncidentEventData['severity']
  cause: string
  monitorId?: string | undefined
  monitorKind?: string | undefined
  detectedAt: string
  resolvedAt?: string | undefined
}

/** The signed acknowledge link for an incident still open; the acknowledgement is credited to `via`. */
export function acknowledgeUrl(
  ctx: CollectorContext,
  incident: Pick<IncidentFacts, 'id' | 'organizationId' | 'status'>,
  via: string,
) {
  if (incident.status === 'resolved' || incident.status === 'acknowledged') return undefined
  const token = signAcknowledgeToken(ctx.sealKey, {
    incidentId: incident.id,
    organizationId: incident.organizationId,
    via,
  })
  return `${collectorPublicUrl(ctx.env)}/ack?token=${token}`
}

function alertOf(
  ctx: CollectorContext,
  incident: IncidentFacts,
  moment: { kind: AlertKind; eventType: string; eventId: string; occurredAt: string; text: string; data?: unknown },
): Alert {
  return {
    kind: moment.kind,
    eventType: moment.eventType,
    eventId: moment.eventId,
    organizationId: incident.organizationId,
    occurredAt: moment.occurredAt,
    title: incident.title,
    text: moment.text,
    link: consoleUrl(ctx.env, `/incidents/${incident.id}`),
    severity: incident.severity,
    incident: {
      id: incident.id,
      dedupKey: `guard-${incident.id}`,
      status: incident.status,
      cause: incident.cause,
      detectedAt: incident.detectedAt,
      ...(incident.resolvedAt ? { resolvedAt: incident.resolvedAt } : {}),
    },
    ...(incident.monitorId ? { monitor: { id: incident.monitorId, kind: incident.monitorKind ?? 'service' } } : {}),
    ...(moment.data === undefined ? {} : { data: moment.data }),
  }
}

/** The alert an incident event makes; each channel adds its own acknowledge link when it is queued. */
export const alertOfEvent = (ctx: CollectorContext, event: IncidentEvent): Alert =>
  alertOf(
    ctx,
    {
      id: event.data.incidentId,
      organizationId: event.organizationId,
      title: event.data.title,
      status: event.data.status,
      severity: event.data.severity,
      cause: event.data.cause,
      monitorId: event.data.monitorId,
      monitorKind: event.data.monitorKind,
      detectedAt: event.data.detectedAt,
      resolvedAt: event.data.resolvedAt,
    },
    {
      kind: alertKindOf(event),
      eventType: event.type,
      eventId: event.id,
      occurredAt: event.occurredAt,
      text: event.data.message,
      data: event.data,
    },
  )

/** An alert about an incident as it stands (escalation steps and reminders are not events). */
export const alertOfIncident = (
  ctx: CollectorContext,
  row: IncidentRow,
  moment: { kind: 'escalated' | 'reminder' | 'opened'; key: string; at: Date; text: string },
): Alert =>
  alertOf(
    ctx,
    {
      id: row.id,
      organizationId: row.organization_id,
      title: row.title,
      status: row.status,
      severity: row.severity,
      cause: row.cause,
      monitorId: row.monitor_id ?? undefined,
      monitorKind: row.monitor_kind ?? undefined,
      detectedAt: new Date(row.detected_at).toISOString(),
      resolvedAt: row.resolved_at ? new Date(row.resolved_at).toISOString() : undefined,
    },
    {
      kind: moment.kind,
      eventType: `incident.${moment.kind}`,
      eventId: moment.key,
      occurredAt: moment.at.toISOString(),
      text: moment.text,
    },
  )
