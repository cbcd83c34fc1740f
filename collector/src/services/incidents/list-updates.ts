import type { Caller, CollectorContext } from '../../context.ts'
import { findIncident } from './find.ts'

export async function listIncidentUpdates(ctx: CollectorContext, caller: Caller, id: string) {
  const incident = await findIncident(ctx.sql, caller, id)
  const { rows } = await ctx.sql.query<{
    id: string
    message: string
    status: 'open'
    automatic: boolean
    author: string | null
    created_at: Date
  }>(
    `SELECT id, message, status, automatic, author, created_at FROM monitoring.incident_updates
      WHERE incident_id = $1 AND organization_id = $2 ORDER BY created_at, id`,
    [incident.id, incident.organization_id],
  )
  return rows.map((row) => ({
    id: row.id,
    incidentId: incident.id,
    message: row.message,
    status: row.status,
    automatic: row.automatic,
    author: row.author,
    createdAt: new Date(row.created_at).toISOString(),
  }))
}
