import { GuardError } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../../context.ts'
import { requirePermission } from '../access/require.ts'
import type { Audience } from '../assistant/audience.ts'
import { listGroups } from './list.ts'
import { type GroupTreeNode, groupTreeNode } from './schemas.ts'

export const groupsResult = z.object({
  groups: z.array(groupTreeNode),
  summary: z.object({
    total: z.number().int(),
    up: z.number().int(),
    down: z.number().int(),
    degraded: z.number().int(),
    unknown: z.number().int(),
  }),
})
export type GroupsResult = z.infer<typeof groupsResult>

const flatten = (nodes: GroupTreeNode[]): GroupTreeNode[] => nodes.flatMap((node) => [node, ...flatten(node.children)])

/** The group trees of a member's organizations for the assistant; status pages show no groups, so never anonymously. */
export async function listGroupsForAudience({
  ctx,
  audience,
}: {
  ctx: CollectorContext
  audience: Audience
}): Promise<GroupsResult> {
  if (audience.kind === 'public') {
    throw new GuardError('UNAUTHORIZED', 'Groups are shown to signed-in callers only')
  }
  const trees = await Promise.all(
    audience.callers.map((caller) => {
      requirePermission(caller, 'groups:read')
      return listGroups({ ctx, caller, input: { organizationId: caller.organizationId } })
    }),
  )
  const groups = trees.flat()
  const every = flatten(groups)
  const count = (state: GroupTreeNode['state']) => every.filter((group) => group.state === state).length
  return {
    groups,
    summary: {
      total: every.length,
      up: count('up'),
      down: count('down'),
      degraded: count('degraded'),
      unknown: count('unknown'),
    },
  }
}
