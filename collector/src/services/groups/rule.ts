import type { GroupRule, GroupState, MemberState } from './schemas.ts'

/**
 * A group's state from its members' (child groups' included). Members that are paused or have no
 * state yet say nothing about the group, so they are left out; a group with no other member is unknown.
 */
export function deriveGroupState(rule: GroupRule, states: readonly (MemberState | GroupState)[]): GroupState {
  const counted = states.filter((state) => state === 'up' || state === 'down' || state === 'degraded')
  if (counted.length === 0) return 'unknown'
  const down = counted.filter((state) => state === 'down').length
  const allUp = counted.every((state) => state === 'up')
  switch (rule.type) {
    case 'all':
      return allUp ? 'up' : down === counted.length ? 'down' : 'degraded'
    case 'any':
      return down > 0 ? 'down' : allUp ? 'up' : 'degraded'
    case 'percent':
      // In integers: down / counted >= percent / 100, without rounding at the threshold.
      return down * 100 >= rule.percent * counted.length ? 'down' : allUp ? 'up' : 'degraded'
  }
}
