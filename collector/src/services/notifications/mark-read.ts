import { notFound } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { authorOf } from '../incidents/find.ts'

/** Marks one of the caller's notifications read; someone else's is 404. */
export async function markNotificationRead(ctx: CollectorContext, caller: Caller, id: string) {
  const { rows } = await ctx.sql.query<{ id: string }>(
    `UPDATE monitoring.notifications SET is_read = true
      WHERE id = $1 AND organization_id = $2 AND principal = $3 RETURNING id`,
    [id, caller.organizationId, authorOf(caller)],
  )
  if (!rows[0]) throw notFound('Notification')
  return { id, isRead: true as const }
}

export async function markAllNotificationsRead(ctx: CollectorContext, caller: Caller) {
  const { affectedRows } = await ctx.sql.query(
    `UPDATE monitoring.notifications SET is_read = true WHERE organization_id = $1 AND principal = $2 AND NOT is_read`,
    [caller.organizationId, authorOf(caller)],
  )
  return { marked: affectedRows }
}
