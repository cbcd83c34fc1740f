import type { Sql } from '@guard/shared'
import { z } from 'zod'
import { findGroup } from './find.ts'

/** The list routes' group filter. */
export const groupQuery = {
  groupId: z.string().min(1).max(64).optional().describe("Only the group's direct members"),
  includeSubgroups: z.stringbool().default(false).describe("With groupId: its child groups' members too"),
}
export interface GroupFilter {
  groupId?: string | undefined
  includeSubgroups?: boolean | undefined
}

/**
 * The groups a list keeps members of: null without a filter. A group of another organization is not
 * found, as on the group's own route.
 */
export async function groupsFiltered(sql: Sql, organizationId: string, filter: GroupFilter): Promise<string[] | null> {
  if (filter.groupId === undefined) return null
  const group = await findGroup(sql, [organizationId], filter.groupId)
  if (!filter.includeSubgroups) return [group.id]
  const { rows } = await sql.query<{ id: string }>(
    `WITH RECURSIVE tree AS (
       SELECT id FROM monitoring.monitor_groups WHERE id = $1
       UNION SELECT g.id FROM monitoring.monitor_groups g JOIN tree t ON g.parent_id = t.id)
     SELECT id FROM tree`,
    [group.id],
  )
  return rows.map((row) => row.id)
}

/** The filter as a SQL condition on the id column of monitors or devices, on parameter `$first`; none without one. */
export function groupCondition(
  idColumn: string,
  table: 'monitors' | 'devices',
  groupIds: string[] | null,
  first: number,
) {
  if (groupIds === null) return { sql: 'TRUE', parameters: [] as string[][] }
  return {
    sql: `${idColumn} IN (SELECT id FROM monitoring.${table} WHERE group_id = ANY($${first}::text[]))`,
    parameters: [groupIds],
  }
}

/** The group of each monitor or device of a list page; null: in none. */
export async function groupsOf(
  sql: Sql,
  table: 'monitors' | 'devices',
  ids: string[],
): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map()
  const { rows } = await sql.query<{ id: string; group_id: string | null }>(
    `SELECT id, group_id FROM monitoring.${table} WHERE id = ANY($1)`,
    [ids],
  )
  return new Map(rows.map((row) => [row.id, row.group_id]))
}
