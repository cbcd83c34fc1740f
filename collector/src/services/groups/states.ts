import type { Sql } from '@guard/shared'
import { GROUP_COLUMNS, type GroupRow, ruleOf } from './find.ts'
import { deriveGroupState } from './rule.ts'
import type { GroupState, GroupView, MemberState, MemberView } from './schemas.ts'

export interface OrganizationGroups {
  groups: GroupRow[]
  views: Map<string, GroupView>
}

interface MemberRow {
  group_id: string
  kind: MemberView['kind']
  id: string
  name: string
  state: MemberState
}

/**
 * Monitor states come from the state machine's table, as the lists read them; a device is down when
 * offline and degraded while its health is warning or critical.
 */
const members = (where: string) => `
  SELECT m.group_id, m.kind, m.id, m.name,
         CASE WHEN NOT m.enabled THEN 'paused' ELSE coalesce(s.status, 'unknown') END AS state
    FROM monitoring.monitors m LEFT JOIN monitoring.monitor_state s ON s.monitor_id = m.id
   WHERE m.organization_id = $1 AND m.${where}
  UNION ALL
  SELECT d.group_id, 'device', d.id, d.name,
         CASE WHEN d.last_seen IS NULL THEN 'unknown' WHEN NOT d.is_online THEN 'down'
              WHEN d.health_status = 'healthy' THEN 'up' ELSE 'degraded' END
    FROM monitoring.devices d
   WHERE d.organization_id = $1 AND d.${where}`

/** The direct members of one group with their states, by name. */
export async function readGroupMembers(sql: Sql, organizationId: string, groupId: string): Promise<MemberView[]> {
  const { rows } = await sql.query<MemberRow>(`${members('group_id = $2')} ORDER BY 4, 3`, [organizationId, groupId])
  return rows.map((row) => ({ kind: row.kind, id: row.id, name: row.name, state: row.state }))
}

/** Every group of the organization with its derived state. */
export async function readOrganizationGroups(sql: Sql, organizationId: string): Promise<OrganizationGroups> {
  const [{ rows: groups }, { rows: memberRows }] = await Promise.all([
    sql.query<GroupRow>(
      `SELECT ${GROUP_COLUMNS} FROM monitoring.monitor_groups WHERE organization_id = $1 ORDER BY name, id`,
      [organizationId],
    ),
    // Counted per group and state in SQL: a tree over thousands of members reads a few hundred rows.
    sql.query<{ group_id: string; state: MemberState; members: number }>(
      `SELECT group_id, state, count(*)::int AS members FROM (${members('group_id IS NOT NULL')}) AS m
        GROUP BY group_id, state`,
      [organizationId],
    ),
  ])
  const memberStates = new Map<string, MemberState[]>()
  for (const row of memberRows) {
    memberStates.set(row.group_id, [
      ...(memberStates.get(row.group_id) ?? []),
      ...Array<MemberState>(row.members).fill(row.state),
    ])
  }
  const children = new Map<string, GroupRow[]>()
  for (const group of groups) {
    if (group.parent_id !== null) children.set(group.parent_id, [...(children.get(group.parent_id) ?? []), group])
  }
  const states = new Map<string, GroupState>()
  const stateOf = (group: GroupRow, visiting: Set<string>): GroupState => {
    const known = states.get(group.id)
    if (known) return known
    visiting.add(group.id)
    const state = deriveGroupState(ruleOf(group), [
      ...(memberStates.get(group.id) ?? []),
      ...(children.get(group.id) ?? [])
        .filter((child) => !visiting.has(child.id))
        .map((child) => stateOf(child, visiting)),
    ])
    states.set(group.id, state)
    return state
  }
  const views = new Map<string, GroupView>()
  for (const group of groups) {
    views.set(group.id, {
      id: group.id,
      organizationId: group.organization_id,
      name: group.name,
      parentId: group.parent_id,
      rule: ruleOf(group),
      description: group.description,
      state: stateOf(group, new Set()),
      memberCount: memberStates.get(group.id)?.length ?? 0,
      createdAt: new Date(group.created_at).toISOString(),
      updatedAt: new Date(group.updated_at).toISOString(),
    })
  }
  return { groups, views }
}
