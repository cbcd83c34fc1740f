import type { CollectorContext } from '../../context.ts'
import { listLocations } from '../probes/list-locations.ts'
import { monitorHistory } from './history.ts'
import type { MonitorRecord } from './schemas.ts'

export interface LocationPoint {
  timestamp: string
  status: string
  responseTime: number
  errorKind?: string
  error?: string
}

/**
 * Points per location, newest first. Every location the monitor runs at is a key; one where no
 * probe is online starts with a `no probe` point, so a missing probe never reads as the target
 * being down.
 */
export async function monitorLocations(
  ctx: CollectorContext,
  monitor: MonitorRecord,
  query: { windowSeconds: number; limit: number },
): Promise<Record<string, LocationPoint[]>> {
  const [rows, locations] = await Promise.all([
    monitorHistory(ctx, monitor, { ...query, perLocation: true }),
    listLocations({ ctx }),
  ])
  // `*` runs wherever a probe is: its locations are those with probes, online or not.
  const runsAt = monitor.locations.includes('*')
    ? locations.filter((location) => location.probes.length > 0).map((location) => location.code)
    : monitor.locations
  const byLocation: Record<string, LocationPoint[]> = {}
  for (const code of runsAt) {
    const location = locations.find((candidate) => candidate.code === code)
    if (location?.online) continue
    const lastSeen = location?.probes
      .map((probe) => probe.lastHeartbeat)
      .sort()
      .at(-1)
    byLocation[code] = [
      {
        timestamp: lastSeen ?? new Date().toISOString(),
        status: 'no probe',
        responseTime: 0,
      },
    ]
  }
  for (const row of rows) {
    const points = byLocation[row.location] ?? []
    points.push({
      timestamp: row.timestamp,
      status: row.status,
      responseTime: row.responseTime,
      ...(row.errorKind === null ? {} : { errorKind: row.errorKind }),
      ...(row.error === null ? {} : { error: row.error }),
    })
    byLocation[row.location] = points
  }
  return byLocation
}
