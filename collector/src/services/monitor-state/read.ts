import type { Sql } from '@guard/shared'
import type { CertificateState } from './transition.ts'

export interface StoredMonitorState {
  status: 'up' | 'down'
  lastCheckAt: string
  consecutiveFailures: number
  certificate: CertificateState | null
}

/** The state machine's outcome per monitor; a monitor without results has no entry (unknown). */
export async function readMonitorStates(sql: Sql, ids: string[]): Promise<Map<string, StoredMonitorState>> {
  if (ids.length === 0) return new Map()
  const { rows } = await sql.query<{
    monitor_id: string
    status: 'up' | 'down'
    last_check_at: Date
    consecutive_failures: number
    certificate: CertificateState | null
  }>(
    `SELECT monitor_id, status, last_check_at, consecutive_failures, certificate
       FROM monitoring.monitor_state WHERE monitor_id = ANY($1)`,
    [ids],
  )
  return new Map(
    rows.map((row) => [
      row.monitor_id,
      {
        status: row.status,
        lastCheckAt: new Date(row.last_check_at).toISOString(),
        consecutiveFailures: row.consecutive_failures,
        certificate: row.certificate,
      },
    ]),
  )
}
