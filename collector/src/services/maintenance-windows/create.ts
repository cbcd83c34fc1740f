import { GuardError, newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { type MaintenanceWindowRow, toWindowView, WINDOW_COLUMNS } from './find.ts'
import { type CreateMaintenanceWindowInput, createMaintenanceWindowInput } from './schemas.ts'

export async function createMaintenanceWindow(
  ctx: CollectorContext,
  caller: Caller,
  input: CreateMaintenanceWindowInput,
  requestedOrganization?: string,
) {
  const parsed = createMaintenanceWindowInput.parse(input)
  const organizationId = organizationScope(caller, requestedOrganization)
  if (parsed.monitorId) {
    const { rows } = await ctx.sql.query('SELECT 1 FROM monitoring.monitors WHERE id = $1 AND organization_id = $2', [
      parsed.monitorId,
      organizationId,
    ])
    if (rows.length === 0) throw new GuardError('VALIDATION_ERROR', 'monitorId: no such domain or service')
  }
  const { rows } = await ctx.sql.query<MaintenanceWindowRow>(
    `INSERT INTO monitoring.maintenance_windows (id, organization_id, monitor_id, title, starts_at, ends_at, recurrence, until)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${WINDOW_COLUMNS}`,
    [
      newId(),
      organizationId,
      parsed.monitorId,
      parsed.title,
      parsed.startsAt,
      parsed.endsAt,
      parsed.recurrence,
      parsed.until,
    ],
  )
  return toWindowView(rows[0]!)
}
