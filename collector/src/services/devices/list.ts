import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { type GroupFilter, groupCondition, groupsFiltered, groupsOf } from '../groups/filter.ts'
import { tagCondition } from '../tags/match.ts'
import { DEVICE_COLUMNS, DEVICE_FROM, type DeviceRow, toDeviceView } from './find.ts'
import type { DeviceView } from './schemas.ts'

export async function listDevices(
  ctx: CollectorContext,
  caller: Caller,
  organizationId?: string,
  tags: string[] = [],
  group: GroupFilter = {},
): Promise<DeviceView[]> {
  const organization = organizationScope(caller, organizationId)
  const tagged = tagCondition('d.tags', tags, 2)
  const grouped = groupCondition(
    'd.id',
    'devices',
    await groupsFiltered(ctx.sql, organization, group),
    2 + tagged.parameters.length,
  )
  const { rows } = await ctx.sql.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM}
      WHERE d.organization_id = $1 AND ${tagged.sql} AND ${grouped.sql} ORDER BY d.created_at DESC, d.id DESC`,
    [organization, ...tagged.parameters, ...grouped.parameters],
  )
  const groups = await groupsOf(
    ctx.sql,
    'devices',
    rows.map((row) => row.id),
  )
  return rows.map((row) => ({ ...toDeviceView(row), groupId: groups.get(row.id) ?? null }))
}
