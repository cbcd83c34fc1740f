import type { Caller, CollectorContext } from '../../context.ts'
import { publishStagedEvents } from '../events/publish.ts'
import { changeIncident } from './change-status.ts'
import { addIncidentUpdate, stageIncidentEvent } from './events.ts'
import { authorOf, findIncident, toIncidentView } from './find.ts'
import { type UpdateIncidentInput, updateIncidentInput } from './schemas.ts'

/** Changes status, severity, impact, title or description; a status change is recorded as an update. */
export async function updateIncident(ctx: CollectorContext, caller: Caller, id: string, input: UpdateIncidentInput) {
  const changes = updateIncidentInput.parse(input)
  const author = authorOf(caller)
  const { row, staged } = await ctx.sql.transaction(async (tx) => {
    const current = await findIncident(tx, caller, id, true)
    const row = await changeIncident(tx, current, author, changes)
    const statusChanged = row.status !== current.status
    const message = statusChanged
      ? `Status changed from ${current.status} to ${row.status}`
      : `Changed ${Object.keys(changes).join(', ')}`
    if (statusChanged) await addIncidentUpdate(tx, row, { message, status: row.status, automatic: false, author })
    const type = statusChanged && row.status === 'resolved' ? 'incident.resolved' : 'incident.updated'
    return { row, staged: await stageIncidentEvent(tx, type, row, { message, automatic: false }) }
  })
  await publishStagedEvents(ctx, { ids: staged }).catch(() => undefined)
  return toIncidentView(row)
}
