import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { findMaintenanceWindow, type MaintenanceWindowRow, toWindowView, WINDOW_COLUMNS } from './find.ts'
import { type UpdateMaintenanceWindowInput, updateMaintenanceWindowInput } from './schemas.ts'

export async function updateMaintenanceWindow(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
  input: UpdateMaintenanceWindowInput,
) {
  const changes = updateMaintenanceWindowInput.parse(input)
  const current = await findMaintenanceWindow(ctx.sql, caller, id)
  const startsAt = changes.startsAt ?? new Date(current.starts_at).toISOString()
  const endsAt = changes.endsAt ?? new Date(current.ends_at).toISOString()
  if (Date.parse(endsAt) <= Date.parse(startsAt))
    throw new GuardError('VALIDATION_ERROR', 'endsAt must be after startsAt')
  const { rows } = await ctx.sql.query<MaintenanceWindowRow>(
    `UPDATE monitoring.maintenance_windows
        SET title = $3, starts_at = $4, ends_at = $5, recurrence = $6, until = $7, updated_at = now()
      WHERE id = $1 AND organization_id = $2 RETURNING ${WINDOW_COLUMNS}`,
    [
      id,
      current.organization_id,
      changes.title ?? current.title,
      startsAt,
      endsAt,
      changes.recurrence ?? current.recurrence,
      changes.until === undefined ? current.until : changes.until,
    ],
  )
  return toWindowView(rows[0]!)
}
