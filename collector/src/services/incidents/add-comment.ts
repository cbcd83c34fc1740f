import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { authorOf, findIncident } from './find.ts'
import { type AddCommentInput, addCommentInput } from './schemas.ts'

/**
 * A discussion entry. Comments raise no event: they are never sent through a channel, so an
 * internal one cannot leave the organization; listIncidentComments({ publicOnly }) drops them.
 */
export async function addCommentToIncident(ctx: CollectorContext, caller: Caller, id: string, input: AddCommentInput) {
  const parsed = addCommentInput.parse(input)
  const incident = await findIncident(ctx.sql, caller, id)
  const { rows } = await ctx.sql.query<{ id: string; created_at: Date }>(
    `INSERT INTO monitoring.incident_comments (id, incident_id, organization_id, content, is_internal, author)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, created_at`,
    [newId(), incident.id, incident.organization_id, parsed.content, parsed.isInternal, authorOf(caller)],
  )
  return {
    id: rows[0]!.id,
    incidentId: incident.id,
    content: parsed.content,
    isInternal: parsed.isInternal,
    author: authorOf(caller),
    createdAt: new Date(rows[0]!.created_at).toISOString(),
  }
}
