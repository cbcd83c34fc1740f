import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { groupCondition } from '../groups/filter.ts'
import { tagCondition } from '../tags/match.ts'
import { MONITOR_COLUMNS, type MonitorRow, toMonitorRecord } from './find.ts'
import type { MonitorKind, MonitorRecord } from './schemas.ts'

/** Every monitor of one kind in one of the caller's organizations carrying the tags named, newest first. */
export async function listMonitors({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: {
    kind: MonitorKind
    organizationId?: string | undefined
    tags?: string[] | undefined
    /** Keep members of these groups only (groups/filter.ts groupsFiltered); null or left out: every monitor. */
    groupIds?: string[] | null | undefined
  }
}): Promise<MonitorRecord[]> {
  const tagged = tagCondition('tags', input.tags ?? [], 3)
  const grouped = groupCondition('id', 'monitors', input.groupIds ?? null, 3 + tagged.parameters.length)
  const { rows } = await ctx.sql.query<MonitorRow>(
    `SELECT ${MONITOR_COLUMNS} FROM monitoring.monitors
      WHERE organization_id = $1 AND kind = $2 AND ${tagged.sql} AND ${grouped.sql}
      ORDER BY created_at DESC, id DESC`,
    [organizationScope(caller, input.organizationId), input.kind, ...tagged.parameters, ...grouped.parameters],
  )
  return rows.map(toMonitorRecord)
}
