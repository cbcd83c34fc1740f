import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { type GroupFilter, groupCondition, groupsFiltered, groupsOf } from '../groups/filter.ts'
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
  input: { organizationId?: string | undefined; tags?: string[] | undefined } & GroupFilter
}): Promise<HeartbeatView[]> {
  const organizationId = organizationScope(caller, input.organizationId)
  const tagged = tagCondition('m.tags', input.tags ?? [], 2)
  const grouped = groupCondition(
    'm.id',
    'monitors',
    await groupsFiltered(ctx.sql, organizationId, input),
    2 + tagged.parameters.length,
  )
  const { rows } = await ctx.sql.query<HeartbeatRow>(
    `SELECT ${HEARTBEAT_COLUMNS} FROM ${HEARTBEAT_FROM}
      WHERE m.organization_id = $1 AND m.kind = 'heartbeat' AND ${tagged.sql} AND ${grouped.sql}
      ORDER BY m.created_at DESC, m.id DESC`,
    [organizationId, ...tagged.parameters, ...grouped.parameters],
  )
  const [views, groups] = await Promise.all([
    viewHeartbeats(
      ctx,
      rows.map((row) => toHeartbeatRecord(row, ctx.credentialKey)),
    ),
    groupsOf(
      ctx.sql,
      'monitors',
      rows.map((row) => row.id),
    ),
  ])
  return views.map((view) => ({ ...view, groupId: groups.get(view.id) ?? null }))
}
