import type { Caller, CollectorContext } from '../../context.ts'
import { groupsOf } from '../groups/filter.ts'
import { findDevice, toDeviceDetail } from './find.ts'
import type { DeviceDetail } from './schemas.ts'

export async function getDevice(ctx: CollectorContext, caller: Caller, id: string): Promise<DeviceDetail> {
  const device = toDeviceDetail(await findDevice(ctx.sql, caller, id))
  const groups = await groupsOf(ctx.sql, 'devices', [device.id])
  return { ...device, groupId: groups.get(device.id) ?? null }
}
