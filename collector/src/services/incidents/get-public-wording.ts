import type { Sql } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { pageText } from '../status-pages/i18n/page-text.ts'
import { type PublicUpdateRow, publicUpdateMessage } from '../status-pages/public-incidents.ts'
import { findIncident, type IncidentRow } from './find.ts'
import type { PublicWordingView } from './public-wording-schemas.ts'

/** What status pages show of an incident beside what the team sees, for reviewing and editing it. */
export async function getIncidentPublicWording({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}): Promise<PublicWordingView> {
  return readPublicWording(ctx.sql, await findIncident(ctx.sql, caller, input.id))
}

export async function readPublicWording(sql: Sql, incident: IncidentRow): Promise<PublicWordingView> {
  const [wording, updates] = await Promise.all([
    sql.query<{ public_title: string | null; published_at: Date | null }>(
      'SELECT public_title, published_at FROM monitoring.incidents WHERE id = $1 AND organization_id = $2',
      [incident.id, incident.organization_id],
    ),
    sql.query<
      PublicUpdateRow & { id: string; status: PublicWordingView['updates'][number]['status']; created_at: Date }
    >(
      `SELECT id, status, message, automatic, error_kind, status_code, public_message, created_at
         FROM monitoring.incident_updates WHERE incident_id = $1 AND organization_id = $2 ORDER BY created_at, id`,
      [incident.id, incident.organization_id],
    ),
  ])
  const row = wording.rows[0]
  return {
    id: incident.id,
    title: incident.title,
    publicTitle: row?.public_title ?? null,
    automatic: incident.cause !== 'manual',
    publishedAt: row?.published_at?.toISOString() ?? null,
    updates: updates.rows.map((update) => ({
      id: update.id,
      status: update.status,
      createdAt: update.created_at.toISOString(),
      message: update.message,
      publicMessage: update.public_message,
      // The console speaks English: the operator reads the wording a page in English would show.
      shown: publicUpdateMessage(incident.cause, update, pageText('en')),
    })),
  }
}
