import type { Caller, CollectorContext } from '../../context.ts'
import { findDevice } from './find.ts'
import { generateDeviceToken } from './token.ts'

/** Replaces the agent token: the old one fails from the next request on. */
export async function regenerateDeviceToken(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
): Promise<{ token: string }> {
  const device = await findDevice(ctx.sql, caller, id)
  const token = generateDeviceToken()
  await ctx.sql.query(
    `UPDATE monitoring.devices SET token_hash = $3, token_prefix = $4, updated_at = now()
      WHERE id = $1 AND organization_id = $2`,
    [id, device.organization_id, token.hash, token.prefix],
  )
  return { token: token.token }
}
