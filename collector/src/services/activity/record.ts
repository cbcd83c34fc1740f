import type { GuardEvent, GuardEventType } from '@guard/shared'
import { truncateText } from '@guard/shared'
import type { EventHandlers, HandlerScope } from '../../ingest/consume-events.ts'

export const ACTIVITY_FEED = 'activity-feed'

/** One line per event, for the organization's recent activity. */
export function summarize(event: GuardEvent): { summary: string; subjectId: string } {
  switch (event.type) {
    case 'monitor.down':
      return { summary: `${event.data.monitorName} went down`, subjectId: event.data.monitorId }
    case 'monitor.up':
      return { summary: `${event.data.monitorName} is back up`, subjectId: event.data.monitorId }
    case 'certificate.expiring':
      return {
        summary: `Certificate of ${event.data.monitorName} expires in ${event.data.daysLeft} days`,
        subjectId: event.data.monitorId,
      }
    case 'certificate.renewed':
      return { summary: `Certificate of ${event.data.monitorName} renewed`, subjectId: event.data.monitorId }
    case 'domain.expiring':
      return {
        summary: `Registration of ${event.data.domain} (${event.data.monitorName}) expires in ${event.data.daysLeft} days`,
        subjectId: event.data.monitorId,
      }
    case 'domain.renewed':
      return {
        summary: `Registration of ${event.data.domain} (${event.data.monitorName}) renewed`,
        subjectId: event.data.monitorId,
      }
    case 'device.offline':
      return { summary: `${event.data.deviceName} went offline`, subjectId: event.data.deviceId }
    case 'device.online':
      return { summary: `${event.data.deviceName} is online`, subjectId: event.data.deviceId }
    case 'device.health':
      return {
        summary: `${event.data.deviceName} health: ${event.data.previous} → ${event.data.current}`,
        subjectId: event.data.deviceId,
      }
    case 'incident.opened':
      return { summary: `Incident opened: ${event.data.title}`, subjectId: event.data.incidentId }
    case 'incident.updated':
      return { summary: `Incident updated: ${event.data.title}`, subjectId: event.data.incidentId }
    case 'incident.resolved':
      return { summary: `Incident resolved: ${event.data.title}`, subjectId: event.data.incidentId }
    case 'slo.burning':
      return { summary: `SLO ${event.data.sloName} is burning its error budget`, subjectId: event.data.sloId }
    case 'slo.recovered':
      return { summary: `SLO ${event.data.sloName} burns within its alerts again`, subjectId: event.data.sloId }
  }
}

async function record(event: GuardEvent, { tx }: HandlerScope): Promise<void> {
  const { summary, subjectId } = summarize(event)
  await tx.query(
    `INSERT INTO monitoring.activity (event_id, organization_id, type, summary, subject_id, occurred_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (event_id) DO NOTHING`,
    [event.id, event.organizationId, event.type, truncateText(summary, 500), subjectId, event.occurredAt],
  )
}

const types: GuardEventType[] = [
  'monitor.down',
  'monitor.up',
  'certificate.expiring',
  'certificate.renewed',
  'domain.expiring',
  'domain.renewed',
  'incident.opened',
  'incident.updated',
  'incident.resolved',
  'device.offline',
  'device.online',
  'device.health',
  'slo.burning',
  'slo.recovered',
]

export const activityFeedHandlers = (): EventHandlers =>
  Object.fromEntries(types.map((type) => [type, record])) as EventHandlers
