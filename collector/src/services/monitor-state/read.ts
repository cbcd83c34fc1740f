import type { Sql } from '@guard/shared'
import type { CertificateState } from './transition.ts'

export interface StoredError {
  kind: string
  message: string
  at: string
  location?: string
}

export interface StoredLocationState {
  location: string
  status: string
  lastResultAt: string
  lastError: StoredError | null
}

export interface StoredMonitorState {
  status: 'up' | 'down'
  lastCheckAt: string
  consecutiveFailures: number
  certificate: CertificateState | null
  /** The newest result that was not up, at any location. */
  lastError: StoredError | null
  /** Locations whose newest result is down. */
  failingLocations: string[]
  locations: StoredLocationState[]
}

interface LocationRow {
  monitor_id: string
  location: string
  status: string
  last_result_at: Date
  last_error: string | null
  last_error_kind: string | null
  last_error_at: Date | null
}

/** Each monitor's locations as the state machine last saw them. */
export async function readLocationStates(sql: Sql, ids: string[]): Promise<Map<string, StoredLocationState[]>> {
  const byMonitor = new Map<string, StoredLocationState[]>()
  if (ids.length === 0) return byMonitor
  const { rows } = await sql.query<LocationRow>(
    `SELECT monitor_id, location, status, last_result_at, last_error, last_error_kind, last_error_at
       FROM monitoring.monitor_location_state WHERE monitor_id = ANY($1) ORDER BY location`,
    [ids],
  )
  for (const row of rows) {
    const list = byMonitor.get(row.monitor_id) ?? []
    list.push({
      location: row.location,
      status: row.status,
      lastResultAt: new Date(row.last_result_at).toISOString(),
      lastError:
        row.last_error !== null && row.last_error_at !== null
          ? {
              kind: row.last_error_kind ?? 'unknown',
              message: row.last_error,
              at: new Date(row.last_error_at).toISOString(),
              location: row.location,
            }
          : null,
    })
    byMonitor.set(row.monitor_id, list)
  }
  return byMonitor
}

/** The state machine's outcome per monitor; a monitor without results has no entry (unknown). */
export async function readMonitorStates(sql: Sql, ids: string[]): Promise<Map<string, StoredMonitorState>> {
  if (ids.length === 0) return new Map()
  const [{ rows }, locations] = await Promise.all([
    sql.query<{
      monitor_id: string
      status: 'up' | 'down'
      last_check_at: Date
      consecutive_failures: number
      certificate: CertificateState | null
    }>(
      `SELECT monitor_id, status, last_check_at, consecutive_failures, certificate
         FROM monitoring.monitor_state WHERE monitor_id = ANY($1)`,
      [ids],
    ),
    readLocationStates(sql, ids),
  ])
  return new Map(
    rows.map((row) => {
      const states = locations.get(row.monitor_id) ?? []
      const errors = states.flatMap((state) => (state.lastError ? [state.lastError] : []))
      const lastError = errors.reduce<StoredError | null>(
        (newest, error) => (!newest || error.at > newest.at ? error : newest),
        null,
      )
      return [
        row.monitor_id,
        {
          status: row.status,
          lastCheckAt: new Date(row.last_check_at).toISOString(),
          consecutiveFailures: row.consecutive_failures,
          certificate: row.certificate,
          lastError,
          failingLocations: states.filter((state) => state.status === 'down').map((state) => state.location),
          locations: states,
        },
      ]
    }),
  )
}
