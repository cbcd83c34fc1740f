import type { Caller, CollectorContext } from '../../context.ts'
import { authorOf } from '../incidents/find.ts'
import type { NotificationView } from './schemas.ts'

interface NotificationRow {
  id: string
  message: string
  type: NotificationView['type']
  is_read: boolean
  created_at: Date
  event_id: string
  incident_id: string | null
}

const eventTypeOf = (eventId: string) => eventId.split(':')[0] ?? eventId

export const toNotificationView = (row: NotificationRow): NotificationView => ({
  id: row.id,
  message: row.message,
  type: row.type,
  isRead: row.is_read,
  createdAt: new Date(row.created_at).toISOString(),
  eventType: eventTypeOf(row.event_id),
  incidentId: row.incident_id,
})

/** The caller's in-app notifications in their organization, newest first, with the unread count. */
export async function listNotifications(
  ctx: CollectorContext,
  caller: Caller,
  options: { limit: number; unreadOnly?: boolean; after?: string },
) {
  const params = [caller.organizationId, authorOf(caller)]
  const [{ rows }, unread] = await Promise.all([
    ctx.sql.query<NotificationRow>(
      `SELECT id, message, type, is_read, created_at, event_id, incident_id FROM monitoring.notifications
        WHERE organization_id = $1 AND principal = $2 AND (NOT $3 OR NOT is_read) AND ($5::text IS NULL OR id > $5)
        ORDER BY id DESC LIMIT $4`,
      [...params, options.unreadOnly ?? false, options.limit, options.after ?? null],
    ),
    ctx.sql.query<{ unread: string }>(
      'SELECT count(*) AS unread FROM monitoring.notifications WHERE organization_id = $1 AND principal = $2 AND NOT is_read',
      params,
    ),
  ])
  return { data: rows.map(toNotificationView), unreadCount: Number(unread.rows[0]?.unread ?? 0) }
}
