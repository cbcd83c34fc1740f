import type { Caller, CollectorContext } from '../../context.ts'
import { findDevice, toDeviceDetail } from './find.ts'
import type { DeviceDetail } from './schemas.ts'

export async function getDevice(ctx: CollectorContext, caller: Caller, id: string): Promise<DeviceDetail> {
  return toDeviceDetail(await findDevice(ctx.sql, caller, id))
}
