import type { Caller, CollectorContext } from '../../context.ts'
import { publishStagedEvents } from '../events/publish.ts'
import { changeIncident } from './change-status.ts'
import { addIncidentUpdate, stageIncidentEvent } from './events.ts'
import { authorOf, findIncident } from './find.ts'
import { type AddUpdateInput, addUpdateInput } from './schemas.ts'

/** A timeline entry; its status becomes the incident's status. */
export async function addUpdateToIncident(ctx: CollectorContext, caller: Caller, id: string, input: AddUpdateInput) {
  const parsed = addUpdateInput.parse(input)
  const author = authorOf(caller)
  const { updateId, staged, row } = await ctx.sql.transaction(async (tx) => {
    const current = await findIncident(tx, caller, id, true)
    const row = await changeIncident(tx, current, author, { status: parsed.status })
    const updateId = await addIncidentUpdate(tx, row, {
      message: parsed.message,
      status: parsed.status,
      automatic: false,
      author,
    })
    const type = row.status === 'resolved' && current.status !== 'resolved' ? 'incident.resolved' : 'incident.updated'
    const staged = await stageIncidentEvent(tx, type, row, {
      message: parsed.message,
      automatic: false,
      subscribers: parsed.notifySubscribers,
    })
    return { updateId, staged, row }
  })
  await publishStagedEvents(ctx, { ids: staged }).catch(() => undefined)
  return { id: updateId, incidentId: row.id, message: parsed.message, status: parsed.status, automatic: false, author }
}
