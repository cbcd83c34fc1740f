import type { HeartbeatPing, TimeSeriesStore } from '@guard/shared'
import { selectRows } from '../results/query.ts'

const COLUMNS = [
  'id',
  'organization_id',
  'monitor_id',
  'type',
  'exit_code',
  'rid',
  'received_at',
  'duration_ms',
  'method',
  'source_ip',
  'user_agent',
  'body',
] as const

/**
 * One insert per batch into heartbeat_pings; pings already stored (a redelivery) are left out, since
 * the ping counts are read without FINAL. Only `redelivered` ids are asked about: a ping delivered
 * for the first time cannot have been stored yet.
 */
export async function storePings(
  timeseries: TimeSeriesStore,
  pings: Array<{ ping: HeartbeatPing; durationMs: number | undefined }>,
  redelivered: ReadonlySet<string>,
): Promise<void> {
  if (pings.length === 0) return
  const asked = pings.filter(({ ping }) => redelivered.has(ping.id))
  const times = asked.map(({ ping }) => Date.parse(ping.receivedAt))
  const known = new Set(
    asked.length === 0
      ? []
      : (
          await selectRows<{ id: string }>(
            timeseries,
            `SELECT id FROM heartbeat_pings
          WHERE monitor_id IN {monitors:Array(String)}
            AND received_at BETWEEN fromUnixTimestamp64Milli({from:Int64}) AND fromUnixTimestamp64Milli({to:Int64})
            AND id IN {ids:Array(String)}`,
            {
              monitors: [...new Set(asked.map(({ ping }) => ping.monitorId))],
              from: Math.min(...times),
              to: Math.max(...times),
              ids: asked.map(({ ping }) => ping.id),
            },
          )
        ).map((row) => row.id),
  )
  const fresh = pings.filter(({ ping }) => !known.has(ping.id))
  if (fresh.length === 0) return
  await timeseries.client.insert({
    table: 'heartbeat_pings',
    columns: [...COLUMNS],
    values: fresh.map(({ ping, durationMs }) => [
      ping.id,
      ping.organizationId,
      ping.monitorId,
      ping.type,
      ping.exitCode ?? null,
      ping.rid ?? '',
      Date.parse(ping.receivedAt),
      durationMs ?? null,
      ping.method,
      ping.sourceIp,
      ping.userAgent ?? '',
      ping.body ?? '',
    ]),
    format: 'JSONCompactEachRow',
  })
}
