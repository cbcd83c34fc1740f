import { GuardError, type Sql } from '@guard/shared'
import type { GroupRule } from './schemas.ts'

export interface GroupRow {
  id: string
  organization_id: string
  name: string
  parent_id: string | null
  rule: GroupRule['type']
  rule_percent: number | null
  description: string | null
  created_at: Date
  updated_at: Date
}

export const GROUP_COLUMNS =
  'id, organization_id, name, parent_id, rule, rule_percent, description, created_at, updated_at'

export const ruleOf = (row: Pick<GroupRow, 'rule' | 'rule_percent'>): GroupRule =>
  row.rule === 'percent' ? { type: 'percent', percent: row.rule_percent ?? 100 } : { type: row.rule }

/** The rule as its two columns. */
export const ruleColumns = (rule: GroupRule): [GroupRule['type'], number | null] => [
  rule.type,
  rule.type === 'percent' ? rule.percent : null,
]

/** A group of one of the caller's organizations; another organization's is 404 like a missing one. */
export async function findGroup(sql: Sql, organizationIds: readonly string[], id: string): Promise<GroupRow> {
  const { rows } = await sql.query<GroupRow>(
    `SELECT ${GROUP_COLUMNS} FROM monitoring.monitor_groups WHERE id = $1 AND organization_id = ANY($2)`,
    [id, organizationIds],
  )
  if (!rows[0]) throw new GuardError('NOT_FOUND', 'Group not found')
  return rows[0]
}

/**
 * The organization's tree, its rows locked until the transaction ends: two concurrent moves could
 * otherwise each pass the cycle check and together make a cycle.
 */
export async function lockGroupTree(tx: Sql, organizationId: string) {
  const { rows } = await tx.query<{ id: string; parent_id: string | null }>(
    'SELECT id, parent_id FROM monitoring.monitor_groups WHERE organization_id = $1 ORDER BY id FOR UPDATE',
    [organizationId],
  )
  return rows.map((row) => ({ id: row.id, parentId: row.parent_id }))
}

export const nameTaken = (error: unknown) =>
  (error as { code?: string }).code === '23505'
    ? new GuardError('CONFLICT', 'name: the organization already has a group with that name')
    : error
