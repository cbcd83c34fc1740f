import type { Sql } from '@guard/shared'
import { addIncidentUpdate, stageIncidentEvent } from './events.ts'
import { INCIDENT_COLUMNS, type IncidentRow } from './find.ts'

/** Resolves the open incidents of a monitor being deleted, with an automatic update each. */
export async function resolveIncidentsOfDeletedMonitor(tx: Sql, monitorId: string): Promise<void> {
  const { rows } = await tx.query<IncidentRow>(
    `UPDATE monitoring.incidents SET status = 'resolved', resolved_at = now(), resolved_by = NULL, updated_at = now()
      WHERE monitor_id = $1 AND resolved_at IS NULL RETURNING ${INCIDENT_COLUMNS}`,
    [monitorId],
  )
  for (const row of rows) {
    const message = 'Resolved because its monitor was deleted'
    await addIncidentUpdate(tx, row, { message, status: 'resolved', automatic: true, author: null })
    await stageIncidentEvent(tx, 'incident.resolved', row, { message, automatic: true })
  }
}
