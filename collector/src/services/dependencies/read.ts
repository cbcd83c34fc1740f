import type { Sql } from '@guard/shared'

export interface MonitorDependencies {
  dependsOn: string[]
  dependents: string[]
  suppressedBy: { monitorId: string; incidentId: string | null } | null
}

const NONE: MonitorDependencies = { dependsOn: [], dependents: [], suppressedBy: null }

/** Each monitor's parents, dependents and active suppression, in one statement for a whole page of monitors. */
export async function readDependencies(sql: Sql, ids: string[]): Promise<Map<string, MonitorDependencies>> {
  const byMonitor = new Map<string, MonitorDependencies>(
    ids.map((id) => [id, { ...NONE, dependsOn: [], dependents: [] }]),
  )
  if (ids.length === 0) return byMonitor
  const { rows } = await sql.query<{
    edge: 'parent' | 'dependent' | 'suppressed'
    monitor_id: string
    other: string
    incident: string | null
  }>(
    `SELECT 'parent' AS edge, monitor_id, depends_on_id AS other, NULL AS incident
       FROM monitoring.monitor_dependencies WHERE monitor_id = ANY($1)
     UNION ALL
     SELECT 'dependent', depends_on_id, monitor_id, NULL
       FROM monitoring.monitor_dependencies WHERE depends_on_id = ANY($1)
     UNION ALL
     SELECT 'suppressed', monitor_id, parent_id, parent_incident_id
       FROM monitoring.suppressed_failures WHERE monitor_id = ANY($1) AND ended_at IS NULL
     ORDER BY 1, 2, 3`,
    [ids],
  )
  for (const row of rows) {
    const entry = byMonitor.get(row.monitor_id)
    if (!entry) continue
    if (row.edge === 'parent') entry.dependsOn.push(row.other)
    else if (row.edge === 'dependent') entry.dependents.push(row.other)
    else entry.suppressedBy = { monitorId: row.other, incidentId: row.incident }
  }
  return byMonitor
}
