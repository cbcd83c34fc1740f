import type { Caller, CollectorContext } from '../../context.ts'
import { findGroup } from './find.ts'
import type { GroupDetail } from './schemas.ts'
import { readGroupMembers, readOrganizationGroups } from './states.ts'

/** A group with its members' states, its child groups and its derived state. */
export async function getGroup({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}): Promise<GroupDetail> {
  const group = await findGroup(ctx.sql, caller.organizationIds, input.id)
  const [{ groups, views }, members] = await Promise.all([
    readOrganizationGroups(ctx.sql, group.organization_id),
    readGroupMembers(ctx.sql, group.organization_id, group.id),
  ])
  return {
    ...views.get(group.id)!,
    members,
    children: groups.filter((child) => child.parent_id === group.id).map((child) => views.get(child.id)!),
  }
}
