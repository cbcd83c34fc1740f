import type { Caller, CollectorContext } from '../../context.ts'
import { publishStagedEvents } from '../events/publish.ts'
import { changeIncident } from './change-status.ts'
import { addIncidentUpdate, stageIncidentEvent } from './events.ts'
import { authorOf, findIncident, type IncidentRow, toIncidentView } from './find.ts'

/**
 * Acknowledges an open incident: someone is on it, so its escalation stops (reminders go on until
 * it resolves) and every channel that heard of it is told who. An incident already acknowledged,
 * being worked on or resolved is left as it is, so a second click or a late callback changes nothing.
 */
export async function acknowledgeIncident({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string; by?: string }
}) {
  const author = input.by ?? authorOf(caller)
  const { row, staged } = await ctx.sql.transaction(async (tx) => {
    const current: IncidentRow = await findIncident(tx, caller, input.id, true)
    if (current.status !== 'open') return { row: current, staged: [] as string[] }
    const row = await changeIncident(tx, current, author, { status: 'acknowledged' })
    // Updates show on public status pages: the acknowledger is kept in acknowledged_by, not in the text.
    const message = 'Acknowledged'
    await addIncidentUpdate(tx, row, { message, status: row.status, automatic: false, author })
    return { row, staged: await stageIncidentEvent(tx, 'incident.updated', row, { message, automatic: false }) }
  })
  if (staged.length > 0) await publishStagedEvents(ctx, { ids: staged }).catch(() => undefined)
  return toIncidentView(row)
}
