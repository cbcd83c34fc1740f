import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { tagCondition } from '../tags/match.ts'
import { HEARTBEAT_COLUMNS, HEARTBEAT_FROM, type HeartbeatRow, toHeartbeatRecord } from './find.ts'
import type { HeartbeatView } from './schemas.ts'
import { viewHeartbeats } from './view.ts'

/** Every heartbeat of one of the caller's organizations carrying the tags named, newest first. */
export async function listHeartbeats({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { organizationId?: string | undefined; tags?: string[] | undefined }
}): Promise<HeartbeatView[]> {
  const tagged = tagCondition('m.tags', input.tags ?? [], 2)
  const { rows } = await ctx.sql.query<HeartbeatRow>(
    `SELECT ${HEARTBEAT_COLUMNS} FROM ${HEARTBEAT_FROM}
      WHERE m.organization_id = $1 AND m.kind = 'heartbeat' AND ${tagged.sql} ORDER BY m.created_at DESC, m.id DESC`,
    [organizationScope(caller, input.organizationId), ...tagged.parameters],
  )
  return viewHeartbeats(
    ctx,
    rows.map((row) => toHeartbeatRecord(row, ctx.credentialKey)),
  )
}
