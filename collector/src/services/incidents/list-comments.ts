import type { Caller, CollectorContext } from '../../context.ts'
import { findIncident } from './find.ts'

/**
 * Comments oldest first. Members of the organization see internal ones; `publicOnly` (what any
 * page outside the organization must use) never returns them.
 */
export async function listIncidentComments(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
  options: { publicOnly?: boolean } = {},
) {
  const incident = await findIncident(ctx.sql, caller, id)
  const { rows } = await ctx.sql.query<{
    id: string
    content: string
    is_internal: boolean
    author: string | null
    created_at: Date
  }>(
    `SELECT id, content, is_internal, author, created_at FROM monitoring.incident_comments
      WHERE incident_id = $1 AND organization_id = $2 AND (NOT $3 OR NOT is_internal) ORDER BY created_at, id`,
    [incident.id, incident.organization_id, options.publicOnly ?? false],
  )
  return rows.map((row) => ({
    id: row.id,
    incidentId: incident.id,
    content: row.content,
    isInternal: row.is_internal,
    author: row.author,
    createdAt: new Date(row.created_at).toISOString(),
  }))
}
