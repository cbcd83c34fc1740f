/** The collector's group views (services/groups/schemas.ts), as the Groups screen reads them. */
export type GroupRule = { type: 'all' } | { type: 'any' } | { type: 'percent'; percent: number }
export type MemberKind = 'domain' | 'service' | 'heartbeat' | 'device'

export interface Group {
  id: string
  name: string
  parentId: string | null
  rule: GroupRule
  description: string | null
  state: 'up' | 'down' | 'degraded' | 'unknown'
  memberCount: number
  children: Group[]
}

export interface GroupMember {
  kind: MemberKind
  id: string
  name: string
  state: 'up' | 'down' | 'degraded' | 'unknown' | 'paused'
}

export interface GroupDetail extends Omit<Group, 'children'> {
  members: GroupMember[]
  children: Array<Omit<Group, 'children'>>
}
