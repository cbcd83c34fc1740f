import { notFound } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { invalidateReads } from '../read-cache/invalidate.ts'

/**
 * Deletes a key of the caller's organization; it stops working on its next request, on every
 * replica, because the invalidation drops what replicas remember of it (api-keys/verify-cached.ts).
 */
export async function revokeApiKey(ctx: CollectorContext, caller: Caller, id: string): Promise<void> {
  const { affectedRows } = await ctx.sql.query(
    'DELETE FROM monitoring.api_keys WHERE id = $1 AND organization_id = $2',
    [id, caller.organizationId],
  )
  if (affectedRows === 0) throw notFound('API key')
  await invalidateReads({ ctx, organizationIds: [caller.organizationId] })
}
