import { type ErrorKind, type GuardEvent, type IncidentEventData, newId, type Sql, truncateText } from '@guard/shared'
import { stageEvents } from '../events/stage.ts'
import type { SubjectKind } from '../monitors/kinds/index.ts'
import type { IncidentRow } from './find.ts'

export interface FailureReason {
  errorKind?: ErrorKind | undefined
  statusCode?: number | undefined
}

type IncidentEventType = 'incident.opened' | 'incident.updated' | 'incident.resolved'

/** Stages the incident event describing `row` as it is now; `message` is what changed. */
export async function stageIncidentEvent(
  tx: Sql,
  type: IncidentEventType,
  row: IncidentRow,
  change: {
    message: string
    automatic: boolean
    at?: Date
    reopened?: boolean
    subscribers?: boolean
    published?: boolean
  },
): Promise<string[]> {
  const data: IncidentEventData = {
    incidentId: row.id,
    title: row.title,
    status: row.status,
    severity: row.severity,
    cause: row.cause as IncidentEventData['cause'],
    ...(row.monitor_id ? { monitorId: row.monitor_id } : {}),
    ...(row.monitor_kind ? { monitorKind: row.monitor_kind as SubjectKind } : {}),
    detectedAt: new Date(row.detected_at).toISOString(),
    ...(row.resolved_at ? { resolvedAt: new Date(row.resolved_at).toISOString() } : {}),
    message: truncateText(change.message, 5000),
    automatic: change.automatic,
    ...(row.flap_count > 0 ? { flapCount: row.flap_count } : {}),
    ...(change.reopened ? { reopened: true } : {}),
    ...(change.subscribers === false ? { subscribers: false } : {}),
    ...(change.published ? { published: true } : {}),
  }
  const event = {
    v: 1,
    id: `${type}:${row.id}:${newId()}`,
    type,
    occurredAt: (change.at ?? new Date()).toISOString(),
    organizationId: row.organization_id,
    data,
  } as GuardEvent
  return stageEvents(tx, [event])
}

export async function addIncidentUpdate(
  tx: Sql,
  row: IncidentRow,
  update: {
    message: string
    status: string
    automatic: boolean
    author: string | null
    at?: Date
    /** What failed, kept beside the internal message: public wording is derived from it (README "Status pages"). */
    reason?: FailureReason | undefined
  },
): Promise<string> {
  const id = newId()
  await tx.query(
    `INSERT INTO monitoring.incident_updates
       (id, incident_id, organization_id, message, status, automatic, author, created_at, error_kind, status_code)
     VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($8, now()), $9, $10)`,
    [
      id,
      row.id,
      row.organization_id,
      update.message,
      update.status,
      update.automatic,
      update.author,
      update.at ?? null,
      update.reason?.errorKind ?? null,
      update.reason?.statusCode ?? null,
    ],
  )
  return id
}
