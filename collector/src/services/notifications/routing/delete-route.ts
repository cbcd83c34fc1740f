import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'

/** Deletes a route; escalations it started stop (the incident keeps what was already sent). */
export async function deleteRoute({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}) {
  const { rows } = await ctx.sql.query<{ is_default: boolean }>(
    'SELECT is_default FROM monitoring.notification_routes WHERE id = $1 AND organization_id = ANY($2)',
    [input.id, caller.organizationIds],
  )
  if (!rows[0]) throw new GuardError('NOT_FOUND', 'Route not found')
  if (rows[0].is_default)
    throw new GuardError('CONFLICT', 'The default route cannot be deleted; empty its channels instead')
  await ctx.sql.transaction(async (tx) => {
    await tx.query(
      `UPDATE monitoring.incident_escalations SET stopped_at = now(), stopped_reason = 'route deleted'
        WHERE route_id = $1 AND stopped_at IS NULL`,
      [input.id],
    )
    await tx.query('DELETE FROM monitoring.notification_routes WHERE id = $1', [input.id])
  })
  return { id: input.id, deleted: true as const }
}
