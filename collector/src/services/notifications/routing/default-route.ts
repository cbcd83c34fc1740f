import { newId, type Sql } from '@guard/shared'

/** Puts a channel on the organization's default route, creating that route on first use. */
export async function addToDefaultRoute(tx: Sql, organizationId: string, channelId: string): Promise<void> {
  await tx.query(
    `INSERT INTO monitoring.notification_routes (id, organization_id, name, position, is_default, channel_ids)
     VALUES ($1, $2, 'Default', 1000000, true, ARRAY[$3])
     ON CONFLICT (organization_id) WHERE is_default
     DO UPDATE SET channel_ids = CASE WHEN $3 = ANY(notification_routes.channel_ids) THEN notification_routes.channel_ids
                                      ELSE array_append(notification_routes.channel_ids, $3) END,
                   updated_at = now()`,
    [newId(), organizationId, channelId],
  )
}
