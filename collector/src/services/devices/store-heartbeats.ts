import type { DeviceHeartbeat, TimeSeriesStore } from '@guard/shared'
import { selectRows } from '../results/query.ts'
import { metricRows } from './metric-rows.ts'

const keyOf = (deviceId: string, timeMs: number) => `${deviceId}:${timeMs}`

/** Heartbeats of the batch already in ClickHouse (every heartbeat stores a cpu usage row). */
async function storedKeys(timeseries: TimeSeriesStore, heartbeats: DeviceHeartbeat[]): Promise<Set<string>> {
  const times = heartbeats.map((heartbeat) => Date.parse(heartbeat.timestamp))
  const rows = await selectRows<{ device_id: string; ms: number }>(
    timeseries,
    `SELECT device_id, toUnixTimestamp64Milli(timestamp) AS ms FROM device_metrics
      WHERE organization_id IN {orgs:Array(String)} AND device_id IN {devices:Array(String)}
        AND type = 'cpu' AND name = 'usage'
        AND timestamp BETWEEN fromUnixTimestamp64Milli({from:Int64}) AND fromUnixTimestamp64Milli({to:Int64})`,
    {
      orgs: [...new Set(heartbeats.map((heartbeat) => heartbeat.organizationId))],
      devices: [...new Set(heartbeats.map((heartbeat) => heartbeat.deviceId))],
      from: Math.min(...times),
      to: Math.max(...times),
    },
  )
  return new Set(rows.map((row) => keyOf(row.device_id, Number(row.ms))))
}

/**
 * One INSERT per batch. Heartbeats already stored (a redelivery, or an agent retrying after the
 * bus' duplicate window) are left out so the per-minute rollup never counts them twice.
 * Returns the heartbeats inserted now.
 */
export async function storeHeartbeats(
  timeseries: TimeSeriesStore,
  heartbeats: DeviceHeartbeat[],
): Promise<DeviceHeartbeat[]> {
  if (heartbeats.length === 0) return []
  const known = await storedKeys(timeseries, heartbeats)
  const fresh: DeviceHeartbeat[] = []
  for (const heartbeat of heartbeats) {
    const key = keyOf(heartbeat.deviceId, Date.parse(heartbeat.timestamp))
    if (known.has(key)) continue
    known.add(key)
    fresh.push(heartbeat)
  }
  if (fresh.length === 0) return []
  await timeseries.client.insert({ table: 'device_metrics', values: fresh.flatMap(metricRows), format: 'JSONEachRow' })
  return fresh
}
