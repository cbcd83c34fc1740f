import type { Caller, CollectorContext } from '../../context.ts'
import { isoFromMillis, selectRows } from '../results/query.ts'
import { findDevice } from './find.ts'
import { type DeviceMetric, type MetricsQuery, metricsQuery } from './schemas.ts'

const RANGE_SECONDS = { '1h': 3600, '6h': 21_600, '24h': 86_400, '7d': 604_800, '30d': 2_592_000 } as const
/** Ranges longer than this read the per-minute rollup, whose values are the minute's averages. */
const RAW_UP_TO_SECONDS = 86_400

/** The device's newest metrics in the range, newest first; `limit` counts rows (one per type and name). */
export async function queryDeviceMetrics(
  ctx: CollectorContext,
  caller: Caller,
  deviceId: string,
  query: MetricsQuery,
): Promise<DeviceMetric[]> {
  const { type, limit, range } = metricsQuery.parse(query)
  const device = await findDevice(ctx.sql, caller, deviceId)
  const seconds = RANGE_SECONDS[range]
  const params = {
    org: device.organization_id,
    device: device.id,
    types: type ? [type] : ['cpu', 'memory', 'disk', 'network'],
    seconds,
    limit,
  }
  const rows =
    seconds <= RAW_UP_TO_SECONDS
      ? await selectRows<{ type: DeviceMetric['type']; name: string; value: number; unit: string; ms: number }>(
          ctx.timeseries,
          `SELECT type, name, value, unit, toUnixTimestamp64Milli(timestamp) AS ms
             FROM device_metrics FINAL
            WHERE organization_id = {org:String} AND device_id = {device:String} AND type IN {types:Array(String)}
              AND timestamp >= now64(3) - toIntervalSecond({seconds:UInt32})
            ORDER BY timestamp DESC, type, name LIMIT {limit:UInt32}`,
          params,
        )
      : await selectRows<{ type: DeviceMetric['type']; name: string; value: number; unit: string; ms: number }>(
          ctx.timeseries,
          `SELECT type, name, sum(value_sum) / sum(samples) AS value, unit, toUnixTimestamp(bucket) * 1000 AS ms
             FROM device_metrics_1m
            WHERE organization_id = {org:String} AND device_id = {device:String} AND type IN {types:Array(String)}
              AND bucket >= now() - toIntervalSecond({seconds:UInt32})
            GROUP BY type, name, unit, bucket
            ORDER BY bucket DESC, type, name LIMIT {limit:UInt32}`,
          params,
        )
  return rows.map((row) => ({
    id: `${device.id}:${row.type}:${row.name}:${Number(row.ms)}`,
    deviceId: device.id,
    type: row.type,
    name: row.name,
    value: row.value,
    unit: row.unit,
    timestamp: isoFromMillis(row.ms),
  }))
}
