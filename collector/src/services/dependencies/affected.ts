import type { Sql } from '@guard/shared'
import type { DependentsAffectedView } from './schemas.ts'

/** The dependents whose failures were suppressed under an incident, in the order they failed. */
export async function dependentsAffected(sql: Sql, incidentId: string): Promise<DependentsAffectedView> {
  const { rows } = await sql.query<{
    monitor_id: string
    name: string
    kind: string
    parent_id: string
    reason: string
    started_at: Date
    ended_at: Date | null
  }>(
    `SELECT f.monitor_id, m.name, m.kind, f.parent_id, f.reason, f.started_at, f.ended_at
       FROM monitoring.suppressed_failures f JOIN monitoring.monitors m ON m.id = f.monitor_id
      WHERE f.parent_incident_id = $1
      ORDER BY f.started_at, f.monitor_id`,
    [incidentId],
  )
  const monitors = rows.map((row) => ({
    monitorId: row.monitor_id,
    name: row.name,
    kind: row.kind,
    parentId: row.parent_id,
    reason: row.reason,
    startedAt: new Date(row.started_at).toISOString(),
    endedAt: row.ended_at ? new Date(row.ended_at).toISOString() : null,
  }))
  return { count: new Set(monitors.map((monitor) => monitor.monitorId)).size, monitors }
}
