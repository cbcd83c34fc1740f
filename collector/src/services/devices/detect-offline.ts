import type { DeviceEvent } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import { recordDeviceEvent } from './outbox.ts'

/**
 * Marks offline every online device silent for three of its intervals (at least the configured
 * minimum) and records one `device.offline` event each. The UPDATE is the test and the change in
 * one statement, so two runners can never both take a device offline. Silence counts from
 * `notBefore` at the earliest (the job's start): agents that could not reach a collector that was
 * itself down get one offline limit to come back before they are called offline.
 */
export async function detectOfflineDevices(
  ctx: CollectorContext,
  now = new Date(),
  notBefore = new Date(0),
): Promise<DeviceEvent[]> {
  return ctx.sql.transaction(async (tx) => {
    const { rows } = await tx.query<{
      id: string
      organization_id: string
      name: string
      hostname: string | null
      last_seen: Date | null
      state_version: number
      after_seconds: number
    }>(
      `UPDATE monitoring.devices d
          SET is_online = false, state_version = d.state_version + 1
         FROM (SELECT id, GREATEST(3 * interval_seconds, $2::int) AS after_seconds FROM monitoring.devices
                WHERE is_online) limits
        WHERE d.id = limits.id AND d.is_online
          AND GREATEST(d.last_seen, $3::timestamptz) < $1::timestamptz - make_interval(secs => limits.after_seconds)
        RETURNING d.id, d.organization_id, d.name, d.last_seen, d.state_version, limits.after_seconds,
          (SELECT s.system->>'hostname' FROM monitoring.device_snapshots s WHERE s.device_id = d.id) AS hostname`,
      [now.toISOString(), ctx.env.GUARD_DEVICE_OFFLINE_MIN_SECONDS, notBefore.toISOString()],
    )
    const events: DeviceEvent[] = rows.map((row) => ({
      v: 1,
      id: `${row.id}:${row.state_version}`,
      type: 'device.offline',
      occurredAt: now.toISOString(),
      organizationId: row.organization_id,
      data: {
        deviceId: row.id,
        deviceName: row.name,
        hostname: row.hostname,
        lastSeen: row.last_seen ? new Date(row.last_seen).toISOString() : null,
        offlineAfterSeconds: row.after_seconds,
      },
    }))
    for (const event of events) await recordDeviceEvent(tx, event)
    return events
  })
}
