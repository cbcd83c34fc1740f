import { notFound, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import { type MaintenanceWindowView, windowCovers } from './schemas.ts'

export interface MaintenanceWindowRow {
  id: string
  organization_id: string
  monitor_id: string | null
  title: string
  starts_at: Date
  ends_at: Date
  recurrence: 'none' | 'daily' | 'weekly'
  until: Date | null
  created_at: Date
  updated_at: Date
}

export const WINDOW_COLUMNS =
  'id, organization_id, monitor_id, title, starts_at, ends_at, recurrence, until, created_at, updated_at'

const ms = (value: Date | null) => (value ? new Date(value).getTime() : null)

export const coversAt = (row: MaintenanceWindowRow, at: number) =>
  windowCovers(
    { startsAt: ms(row.starts_at)!, endsAt: ms(row.ends_at)!, recurrence: row.recurrence, until: ms(row.until) },
    at,
  )

export function toWindowView(row: MaintenanceWindowRow, now = Date.now()): MaintenanceWindowView {
  return {
    id: row.id,
    organizationId: row.organization_id,
    monitorId: row.monitor_id,
    title: row.title,
    startsAt: new Date(row.starts_at).toISOString(),
    endsAt: new Date(row.ends_at).toISOString(),
    recurrence: row.recurrence,
    until: row.until ? new Date(row.until).toISOString() : null,
    active: coversAt(row, now),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

export async function findMaintenanceWindow(sql: Sql, caller: Caller, id: string): Promise<MaintenanceWindowRow> {
  const { rows } = await sql.query<MaintenanceWindowRow>(
    `SELECT ${WINDOW_COLUMNS} FROM monitoring.maintenance_windows WHERE id = $1 AND organization_id = ANY($2)`,
    [id, caller.organizationIds],
  )
  if (!rows[0]) throw notFound('Maintenance window')
  return rows[0]
}

/** Whether a window of the organization (for every monitor, or for this one) covers `at`. */
export async function isUnderMaintenance(
  sql: Sql,
  organizationId: string,
  monitorId: string | undefined,
  at: number,
): Promise<boolean> {
  const { rows } = await sql.query<MaintenanceWindowRow>(
    `SELECT ${WINDOW_COLUMNS} FROM monitoring.maintenance_windows
      WHERE organization_id = $1 AND (monitor_id IS NULL OR monitor_id = $2) AND starts_at <= to_timestamp($3::float8 / 1000)`,
    [organizationId, monitorId ?? null, at],
  )
  return rows.some((row) => coversAt(row, at))
}
