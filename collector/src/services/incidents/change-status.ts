import { GuardError, type IncidentStatus, type Sql } from '@guard/shared'
import { INCIDENT_COLUMNS, type IncidentRow } from './find.ts'

/**
 * Applies a person's changes to an incident row: leaving `open` acknowledges it (who and when,
 * once), `resolved` records who resolved it, and leaving `resolved` reopens it. A reopened
 * monitor incident may collide with a newer open one of the same monitor and cause: 409.
 */
export async function changeIncident(
  tx: Sql,
  current: IncidentRow,
  author: string,
  changes: { title?: string; description?: string; severity?: string; impact?: string; status?: IncidentStatus },
): Promise<IncidentRow> {
  const status = changes.status ?? current.status
  try {
    const { rows } = await tx.query<IncidentRow>(
      `UPDATE monitoring.incidents
          SET title = $2, description = $3, severity = $4, impact = $5, status = $6,
              acknowledged_at = CASE WHEN acknowledged_at IS NULL AND $6 <> 'open' THEN now() ELSE acknowledged_at END,
              acknowledged_by = CASE WHEN acknowledged_at IS NULL AND $6 <> 'open' THEN $7 ELSE acknowledged_by END,
              resolved_at = CASE WHEN $6 = 'resolved' THEN coalesce(resolved_at, now()) ELSE NULL END,
              resolved_by = CASE WHEN $6 = 'resolved' THEN coalesce(resolved_by, $7) ELSE NULL END,
              updated_at = now()
        WHERE id = $1 RETURNING ${INCIDENT_COLUMNS}`,
      [
        current.id,
        changes.title ?? current.title,
        changes.description ?? current.description,
        changes.severity ?? current.severity,
        changes.impact ?? current.impact,
        status,
        author,
      ],
    )
    return rows[0]!
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw new GuardError('CONFLICT', 'This monitor has a newer open incident for the same cause; update that one')
    }
    throw error
  }
}
