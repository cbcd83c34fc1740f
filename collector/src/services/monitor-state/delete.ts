import type { Sql } from '@guard/shared'
import { resolveIncidentsOfDeletedMonitor } from '../incidents/resolve-deleted.ts'

/**
 * Forgets a deleted monitor's state. Its incidents stay, as the history of what happened; the
 * open ones are resolved, since nothing would ever resolve them (the relay publishes their events).
 */
export async function deleteMonitorState(sql: Sql, monitorId: string): Promise<void> {
  await sql.query('DELETE FROM monitoring.monitor_location_state WHERE monitor_id = $1', [monitorId])
  await sql.query('DELETE FROM monitoring.monitor_state WHERE monitor_id = $1', [monitorId])
  await resolveIncidentsOfDeletedMonitor(sql, monitorId)
}
