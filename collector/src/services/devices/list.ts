import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { DEVICE_COLUMNS, DEVICE_FROM, type DeviceRow, toDeviceView } from './find.ts'
import type { DeviceView } from './schemas.ts'

export async function listDevices(
  ctx: CollectorContext,
  caller: Caller,
  organizationId?: string,
): Promise<DeviceView[]> {
  const { rows } = await ctx.sql.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM} WHERE d.organization_id = $1 ORDER BY d.created_at DESC, d.id DESC`,
    [organizationScope(caller, organizationId)],
  )
  return rows.map(toDeviceView)
}
