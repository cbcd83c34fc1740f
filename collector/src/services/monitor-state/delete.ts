import type { Sql } from '@guard/shared'

/** Forgets a deleted monitor's state; its incidents stay, as the history of what happened. */
export async function deleteMonitorState(sql: Sql, monitorId: string): Promise<void> {
  await sql.query('DELETE FROM monitoring.monitor_location_state WHERE monitor_id = $1', [monitorId])
  await sql.query('DELETE FROM monitoring.monitor_state WHERE monitor_id = $1', [monitorId])
}
