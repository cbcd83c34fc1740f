import type { DeviceEvent, DeviceHeartbeat, Sql } from '@guard/shared'
import type { CollectorEnv } from '../../env.ts'
import { DEVICE_COLUMNS, DEVICE_FROM, type DeviceRow, thresholdsOf } from './find.ts'
import { HEALTH_METRICS, type HealthHold, holdHealth, startingHold } from './health.ts'
import { recordDeviceEvent } from './outbox.ts'

/** Seconds of silence after which a device is offline: three of its intervals, never under the minimum. */
export const offlineAfterSeconds = (
  intervalSeconds: number,
  env: Pick<CollectorEnv, 'GUARD_DEVICE_OFFLINE_MIN_SECONDS'>,
) => Math.max(3 * intervalSeconds, env.GUARD_DEVICE_OFFLINE_MIN_SECONDS)

const INVENTORIES = ['system', 'processes', 'applications', 'connections', 'network'] as const

/**
 * Moves each device's state forward with the heartbeats of a batch, in their own time order:
 * online, last seen, health held per metric, latest inventories, and one recorded event per change.
 * Heartbeats not newer than the last one applied (a redelivery, a late copy) change nothing, so
 * applying a batch twice is applying it once. One transaction per batch, rows locked in id order.
 */
export async function applyHeartbeats(
  sql: Sql,
  env: Pick<CollectorEnv, 'GUARD_DEVICE_OFFLINE_MIN_SECONDS'>,
  heartbeats: DeviceHeartbeat[],
  now = new Date(),
): Promise<DeviceEvent[]> {
  if (heartbeats.length === 0) return []
  const byDevice = new Map<string, DeviceHeartbeat[]>()
  for (const heartbeat of heartbeats)
    byDevice.set(heartbeat.deviceId, [...(byDevice.get(heartbeat.deviceId) ?? []), heartbeat])
  return sql.transaction(async (tx) => {
    const { rows } = await tx.query<DeviceRow>(
      `SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM} WHERE d.id = ANY($1) ORDER BY d.id FOR UPDATE OF d`,
      [[...byDevice.keys()]],
    )
    const events: DeviceEvent[] = []
    const updates: Array<{ id: string; applied: NonNullable<ReturnType<typeof applyToDevice>> }> = []
    for (const device of rows) {
      const applied = applyToDevice(device, byDevice.get(device.id) ?? [], env, now)
      if (applied) updates.push({ id: device.id, applied })
    }
    if (updates.length === 0) return events
    // One statement for the whole batch: a fleet's heartbeats cost one round trip, not one each.
    await tx.query(
      `UPDATE monitoring.devices d
          SET is_online = u.is_online, last_seen = u.last_seen, last_heartbeat_at = u.last_heartbeat_at,
              interval_seconds = u.interval_seconds, health_status = u.health_status,
              health_hold = u.health_hold, state_version = u.state_version
         FROM unnest($1::text[], $2::boolean[], $3::timestamptz[], $4::timestamptz[], $5::int[], $6::text[],
                     $7::jsonb[], $8::int[])
              AS u(id, is_online, last_seen, last_heartbeat_at, interval_seconds, health_status, health_hold,
                   state_version)
        WHERE d.id = u.id`,
      [
        updates.map((u) => u.id),
        updates.map((u) => u.applied.isOnline),
        updates.map((u) => u.applied.lastSeen.toISOString()),
        updates.map((u) => u.applied.lastHeartbeatAt),
        updates.map((u) => u.applied.intervalSeconds),
        updates.map((u) => u.applied.health.status),
        updates.map((u) => JSON.stringify(u.applied.health.hold)),
        updates.map((u) => u.applied.version),
      ],
    )
    for (const { id, applied } of updates) {
      if (Object.keys(applied.inventories).length > 0) await saveInventories(tx, id, applied.inventories)
      for (const event of applied.events) await recordDeviceEvent(tx, event)
      events.push(...applied.events)
    }
    return events
  })
}

function applyToDevice(
  device: DeviceRow,
  received: DeviceHeartbeat[],
  env: Parameters<typeof offlineAfterSeconds>[1],
  now: Date,
) {
  const since = device.last_heartbeat_at ? new Date(device.last_heartbeat_at).getTime() : Number.NEGATIVE_INFINITY
  const fresh = received
    .filter((heartbeat) => Date.parse(heartbeat.timestamp) > since)
    .sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp))
  if (fresh.length === 0) return undefined
  const latest = fresh.at(-1)!
  const intervalSeconds = latest.heartbeat.interval_seconds ?? device.interval_seconds
  const lastSeen = new Date(
    Math.max(
      device.last_seen ? new Date(device.last_seen).getTime() : 0,
      ...fresh.map((h) => Date.parse(h.receivedAt)),
    ),
  )
  const hostname = latest.heartbeat.system?.hostname ?? device.system?.hostname ?? null
  let version = device.state_version
  const events: DeviceEvent[] = []
  const base = () => ({ v: 1 as const, id: `${device.id}:${++version}`, organizationId: device.organization_id })
  const ref = { deviceId: device.id, deviceName: device.name, hostname }

  // A heartbeat that arrived longer ago than the offline limit (a redelivery long after) proves nothing about now.
  const alive = now.getTime() - lastSeen.getTime() < offlineAfterSeconds(intervalSeconds, env) * 1000
  let isOnline = device.is_online
  if (!isOnline && alive) {
    isOnline = true
    events.push({
      ...base(),
      type: 'device.online',
      occurredAt: now.toISOString(),
      data: { ...ref, lastSeen: lastSeen.toISOString(), wasOffline: device.last_seen !== null },
    })
  }

  let health = {
    status: device.health_status,
    hold: Object.fromEntries(
      HEALTH_METRICS.map((metric) => [metric, device.health_hold[metric] ?? startingHold(device.health_status)]),
    ) as HealthHold,
  }
  const thresholds = thresholdsOf(device)
  const limit = offlineAfterSeconds(intervalSeconds, env) * 1000
  let previous = device.last_heartbeat_at ? new Date(device.last_heartbeat_at).getTime() : undefined
  for (const heartbeat of fresh) {
    const at = Date.parse(heartbeat.timestamp)
    // Heartbeats missing for longer than the offline limit leave a gap the hold cannot span.
    const restart = previous !== undefined && at - previous > limit
    previous = at
    const next = holdHealth(health.hold, heartbeat.heartbeat.metrics, heartbeat.timestamp, thresholds, restart)
    if (next.status !== health.status) {
      events.push({
        ...base(),
        type: 'device.health',
        occurredAt: heartbeat.timestamp,
        data: { ...ref, previous: health.status, current: next.status, reasons: next.reasons },
      })
    }
    health = { status: next.status, hold: next.hold }
  }

  const inventories: Partial<Record<(typeof INVENTORIES)[number], { value: unknown; at: string }>> = {}
  for (const heartbeat of fresh) {
    for (const kind of INVENTORIES) {
      const value = heartbeat.heartbeat[kind]
      if (value !== undefined) inventories[kind] = { value, at: heartbeat.timestamp }
    }
  }

  return {
    isOnline,
    lastSeen,
    lastHeartbeatAt: latest.timestamp,
    intervalSeconds,
    health,
    version,
    events,
    inventories,
  }
}

async function saveInventories(
  tx: Sql,
  deviceId: string,
  inventories: Partial<Record<(typeof INVENTORIES)[number], { value: unknown; at: string }>>,
): Promise<void> {
  const kinds = INVENTORIES.filter((kind) => inventories[kind])
  const columns = kinds.flatMap((kind) => [kind, `${kind}_at`])
  const values = kinds.flatMap((kind) => [JSON.stringify(inventories[kind]!.value), inventories[kind]!.at])
  const placeholders = columns.map((_, index) => `$${index + 2}`)
  await tx.query(
    `INSERT INTO monitoring.device_snapshots (device_id, ${columns.join(', ')}) VALUES ($1, ${placeholders.join(', ')})
     ON CONFLICT (device_id) DO UPDATE SET ${columns.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}`,
    [deviceId, ...values],
  )
}
