import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { recordChange } from '../activity/record-change.ts'
import { findDevice, toDeviceDetail } from './find.ts'
import { DEFAULT_HOLD_SECONDS } from './health.ts'
import { type CreateDeviceInput, createDeviceInput, type DeviceDetail } from './schemas.ts'
import { generateDeviceToken } from './token.ts'

const DEFAULTS = { warning: 80, critical: 90, holdSeconds: DEFAULT_HOLD_SECONDS }

/** Enrols a device: its agent token is returned here once; only its hash is kept. */
export async function createDevice(
  ctx: CollectorContext,
  caller: Caller,
  body: CreateDeviceInput,
  organization?: string,
): Promise<DeviceDetail & { token: string }> {
  const input = createDeviceInput.parse(body)
  const { cpu, memory, disk } = {
    cpu: { ...DEFAULTS, ...input.thresholds?.cpu },
    memory: { ...DEFAULTS, ...input.thresholds?.memory },
    disk: { ...DEFAULTS, ...input.thresholds?.disk },
  }
  const id = newId()
  const token = generateDeviceToken()
  const organizationId = organizationScope(caller, organization)
  await ctx.sql.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO monitoring.devices (id, organization_id, name, tags, token_hash, token_prefix,
       cpu_warning, cpu_critical, memory_warning, memory_critical, disk_warning, disk_critical,
       cpu_hold_seconds, memory_hold_seconds, disk_hold_seconds)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        id,
        organizationId,
        input.name,
        input.tags,
        token.hash,
        token.prefix,
        cpu.warning,
        cpu.critical,
        memory.warning,
        memory.critical,
        disk.warning,
        disk.critical,
        cpu.holdSeconds,
        memory.holdSeconds,
        disk.holdSeconds,
      ],
    )
    await recordChange(tx, { organizationId, kind: 'device', action: 'created', id, name: input.name })
  })
  return { ...toDeviceDetail(await findDevice(ctx.sql, caller, id)), token: token.token }
}
