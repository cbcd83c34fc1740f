import type { Caller, CollectorContext } from '../../context.ts'
import { findDevice, thresholdsOf, toDeviceDetail } from './find.ts'
import { HEALTH_METRICS } from './health.ts'
import { type DeviceDetail, type UpdateDeviceInput, updateDeviceInput } from './schemas.ts'

/**
 * Renames, retags or changes thresholds and their holds; the next heartbeat judges health by the
 * new ones. A metric given without `holdSeconds` keeps its hold.
 */
export async function updateDevice(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
  body: UpdateDeviceInput,
): Promise<DeviceDetail> {
  const input = updateDeviceInput.parse(body)
  const current = await findDevice(ctx.sql, caller, id)
  const stored = thresholdsOf(current)
  const thresholds = Object.fromEntries(
    HEALTH_METRICS.map((metric) => [metric, { ...stored[metric], ...input.thresholds?.[metric] }]),
  ) as typeof stored
  await ctx.sql.query(
    `UPDATE monitoring.devices
        SET name = $3, tags = $4, cpu_warning = $5, cpu_critical = $6, memory_warning = $7,
            memory_critical = $8, disk_warning = $9, disk_critical = $10, cpu_hold_seconds = $11,
            memory_hold_seconds = $12, disk_hold_seconds = $13, updated_at = now()
      WHERE id = $1 AND organization_id = $2`,
    [
      id,
      current.organization_id,
      input.name ?? current.name,
      input.tags ?? current.tags,
      thresholds.cpu.warning,
      thresholds.cpu.critical,
      thresholds.memory.warning,
      thresholds.memory.critical,
      thresholds.disk.warning,
      thresholds.disk.critical,
      thresholds.cpu.holdSeconds,
      thresholds.memory.holdSeconds,
      thresholds.disk.holdSeconds,
    ],
  )
  return toDeviceDetail(await findDevice(ctx.sql, caller, id))
}
