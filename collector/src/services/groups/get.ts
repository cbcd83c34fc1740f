import type { Caller, CollectorContext } from '../../context.ts'
import { findGroup } from './find.ts'
import type { GroupDetail } from './schemas.ts'
import { readOrganizationGroups } from './states.ts'

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
  const { groups, members, views } = await readOrganizationGroups(ctx.sql, group.organization_id)
  const view = views.get(group.id)!
  return {
    ...view,
    members: members.get(group.id) ?? [],
    children: groups.filter((child) => child.parent_id === group.id).map((child) => views.get(child.id)!),
  }
}
