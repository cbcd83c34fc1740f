import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import type { GroupTreeNode } from './schemas.ts'
import { readOrganizationGroups } from './states.ts'

/** The organization's groups as a tree (top-level groups first, by name), each with its derived state. */
export async function listGroups({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { organizationId?: string | undefined }
}): Promise<GroupTreeNode[]> {
  const organizationId = organizationScope(caller, input.organizationId)
  const { groups, views } = await readOrganizationGroups(ctx.sql, organizationId)
  const nodes = new Map(groups.map((group) => [group.id, { ...views.get(group.id)!, children: [] as GroupTreeNode[] }]))
  const roots: GroupTreeNode[] = []
  for (const group of groups) {
    const node = nodes.get(group.id)!
    const parent = group.parent_id === null ? undefined : nodes.get(group.parent_id)
    if (parent) parent.children.push(node)
    else roots.push(node)
  }
  return roots
}
