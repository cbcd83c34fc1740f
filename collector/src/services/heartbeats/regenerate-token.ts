import type { Caller, CollectorContext } from '../../context.ts'
import { findHeartbeat } from './find.ts'
import type { HeartbeatRecord } from './schemas.ts'
import { generatePingToken } from './token.ts'

/** A new ping URL; the old one answers 404 from now on, like a token that never existed. */
export async function regenerateHeartbeatToken({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}): Promise<HeartbeatRecord> {
  const heartbeat = await findHeartbeat(ctx.sql, ctx.credentialKey, caller, input.id)
  const token = generatePingToken(ctx.credentialKey)
  await ctx.sql.query('UPDATE monitoring.heartbeats SET token_hash = $2, token_sealed = $3 WHERE monitor_id = $1', [
    heartbeat.id,
    token.hash,
    token.sealed,
  ])
  return findHeartbeat(ctx.sql, ctx.credentialKey, caller, heartbeat.id)
}
