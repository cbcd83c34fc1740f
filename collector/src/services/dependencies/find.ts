import { GuardError, notFound, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import { hasPermission } from '../access/permissions.ts'
import { type MonitorRowKind, monitorKinds } from '../monitors/kinds/index.ts'

export interface DependencyMonitor {
  id: string
  organizationId: string
  kind: MonitorRowKind
  name: string
}

/**
 * A monitor of any kind in one of the caller's organizations, which the caller may `action`
 * by its kind's permission; anything else is simply not found.
 */
export async function findAnyMonitor(
  sql: Sql,
  caller: Caller,
  id: string,
  action: 'read' | 'write',
): Promise<DependencyMonitor> {
  const { rows } = await sql.query<{
    id: string
    organization_id: string
    kind: DependencyMonitor['kind']
    name: string
  }>('SELECT id, organization_id, kind, name FROM monitoring.monitors WHERE id = $1 AND organization_id = ANY($2)', [
    id,
    caller.organizationIds,
  ])
  const row = rows[0]
  if (!row) throw notFound('Monitor')
  const needed = `${monitorKinds[row.kind].resource}:${action}`
  if (!hasPermission(caller.permissions, needed)) throw new GuardError('FORBIDDEN', `Missing permission ${needed}`)
  return { id: row.id, organizationId: row.organization_id, kind: row.kind, name: row.name }
}
