import type { Sql } from '@guard/shared'
import type { GroupState } from './schemas.ts'
import { readOrganizationGroups } from './states.ts'

/** How many of the organization's groups are in each derived state. */
export async function countGroupsByState(sql: Sql, organizationId: string) {
  const { views } = await readOrganizationGroups(sql, organizationId)
  const counts: Record<GroupState, number> & { total: number } = {
    total: views.size,
    up: 0,
    down: 0,
    degraded: 0,
    unknown: 0,
  }
  for (const view of views.values()) counts[view.state] += 1
  return counts
}
