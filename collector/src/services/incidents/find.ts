import { notFound, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import type { IncidentView } from './schemas.ts'

export const INCIDENT_COLUMNS = `id, organization_id, title, description, status, severity, impact, cause, monitor_id,
  monitor_kind, affected_services, affected_domains, affected_devices, detected_at, acknowledged_at, acknowledged_by,
  resolved_at, resolved_by, flap_count, created_at, updated_at`

export interface IncidentRow {
  id: string
  organization_id: string
  title: string
  description: string
  status: IncidentView['status']
  severity: IncidentView['severity']
  impact: IncidentView['impact']
  cause: string
  monitor_id: string | null
  monitor_kind: string | null
  affected_services: string[]
  affected_domains: string[]
  affected_devices: string[]
  detected_at: Date
  acknowledged_at: Date | null
  acknowledged_by: string | null
  resolved_at: Date | null
  resolved_by: string | null
  flap_count: number
  created_at: Date
  updated_at: Date
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null)

export function toIncidentView(row: IncidentRow): IncidentView {
  return {
    id: row.id,
    organizationId: row.organization_id,
    title: row.title,
    description: row.description,
    status: row.status,
    severity: row.severity,
    impact: row.impact,
    cause: row.cause,
    monitorId: row.monitor_id,
    monitorKind: row.monitor_kind,
    affectedServices: row.affected_services,
    affectedDomains: row.affected_domains,
    affectedDevices: row.affected_devices,
    detectedAt: iso(row.detected_at)!,
    acknowledgedAt: iso(row.acknowledged_at),
    acknowledgedBy: row.acknowledged_by,
    resolvedAt: iso(row.resolved_at),
    resolvedBy: row.resolved_by,
    flapCount: row.flap_count,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  }
}

/** The incident if it belongs to one of the caller's organizations; 404 otherwise, never 403. */
export async function findIncident(sql: Sql, caller: Caller, id: string, lock = false): Promise<IncidentRow> {
  const { rows } = await sql.query<IncidentRow>(
    `SELECT ${INCIDENT_COLUMNS} FROM monitoring.incidents WHERE id = $1 AND organization_id = ANY($2)${lock ? ' FOR UPDATE' : ''}`,
    [id, caller.organizationIds],
  )
  if (!rows[0]) throw notFound('Incident')
  return rows[0]
}

export const authorOf = (caller: Caller) => `${caller.principal.kind}:${caller.principal.id}`
