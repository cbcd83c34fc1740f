import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { tagCondition } from '../tags/match.ts'
import { DEVICE_COLUMNS, DEVICE_FROM, type DeviceRow, toDeviceView } from './find.ts'
import type { DeviceView } from './schemas.ts'

export async function listDevices(
  ctx: CollectorContext,
  caller: Caller,
  organizationId?: string,
  tags: string[] = [],
): Promise<DeviceView[]> {
  const tagged = tagCondition('d.tags', tags, 2)
  const { rows } = await ctx.sql.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM}
      WHERE d.organization_id = $1 AND ${tagged.sql} ORDER BY d.created_at DESC, d.id DESC`,
    [organizationScope(caller, organizationId), ...tagged.parameters],
  )
  return rows.map(toDeviceView)
}
