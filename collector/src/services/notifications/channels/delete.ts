import type { Caller, CollectorContext } from '../../../context.ts'
import { findChannel } from './find.ts'

/**
 * Deletes a channel and takes it out of every route and escalation step; its queued deliveries
 * are dropped (there is nowhere left to send them), its delivery history stays.
 */
export async function deleteChannel({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}) {
  const row = await findChannel(ctx.sql, caller.organizationIds, input.id)
  await ctx.sql.transaction(async (tx) => {
    await tx.query(
      `UPDATE monitoring.notification_routes SET channel_ids = array_remove(channel_ids, $2), updated_at = now()
        WHERE organization_id = $1 AND $2 = ANY(channel_ids)`,
      [row.organization_id, row.id],
    )
    await tx.query(
      `UPDATE monitoring.escalation_policies
          SET steps = (SELECT coalesce(jsonb_agg(jsonb_set(step, '{channelIds}',
                         coalesce((SELECT jsonb_agg(c) FROM jsonb_array_elements(step->'channelIds') c WHERE c <> to_jsonb($2::text)), '[]'::jsonb))
                         ORDER BY n), '[]'::jsonb)
                         FROM jsonb_array_elements(steps) WITH ORDINALITY AS s(step, n)),
              updated_at = now()
        WHERE organization_id = $1`,
      [row.organization_id, row.id],
    )
    await tx.query(
      `UPDATE monitoring.notification_deliveries SET status = 'failed', last_error = 'the channel was deleted'
        WHERE channel_id = $1 AND status IN ('pending', 'held')`,
      [row.id],
    )
    await tx.query('DELETE FROM monitoring.notification_channels WHERE id = $1', [row.id])
  })
  return { id: row.id, deleted: true as const }
}
