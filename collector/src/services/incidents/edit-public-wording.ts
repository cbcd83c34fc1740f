import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { publishStagedEvents } from '../events/publish.ts'
import { stageIncidentEvent } from './events.ts'
import { findIncident } from './find.ts'
import { readPublicWording } from './get-public-wording.ts'
import {
  type EditPublicWordingInput,
  editPublicWordingInput,
  type PublicWordingView,
} from './public-wording-schemas.ts'

/**
 * Sets what status pages show of an incident: its public title, whether it is published (pages that
 * hold automatic incidents as drafts show it only then) and the public wording of its updates. The
 * internal title and messages stay as they are. Publishing a draft is the moment the subscribers of
 * those pages hear of it: they were not told when it opened.
 */
export async function editIncidentPublicWording({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string } & EditPublicWordingInput
}): Promise<PublicWordingView> {
  const { id, ...body } = input
  const changes = editPublicWordingInput.parse(body)
  const { view, staged } = await ctx.sql.transaction(async (tx) => {
    const incident = await findIncident(tx, caller, id, true)
    if (changes.updates?.length) {
      const { rows } = await tx.query<{ id: string }>(
        'SELECT id FROM monitoring.incident_updates WHERE incident_id = $1 AND organization_id = $2 AND id = ANY($3)',
        [incident.id, incident.organization_id, changes.updates.map((update) => update.id)],
      )
      const known = new Set(rows.map((row) => row.id))
      if (changes.updates.some((update) => !known.has(update.id)))
        throw new GuardError('VALIDATION_ERROR', 'updates: an id is not an update of this incident')
      for (const update of changes.updates) {
        await tx.query('UPDATE monitoring.incident_updates SET public_message = $2 WHERE id = $1', [
          update.id,
          update.publicMessage,
        ])
      }
    }
    const { rows: before } = await tx.query<{ published: boolean }>(
      'SELECT published_at IS NOT NULL AS published FROM monitoring.incidents WHERE id = $1',
      [incident.id],
    )
    await tx.query(
      `UPDATE monitoring.incidents
          SET public_title = CASE WHEN $2 THEN $3 ELSE public_title END,
              published_at = CASE WHEN $4::boolean IS NULL THEN published_at
                                  WHEN $4 THEN coalesce(published_at, now()) ELSE NULL END,
              updated_at = now()
        WHERE id = $1`,
      [incident.id, changes.publicTitle !== undefined, changes.publicTitle ?? null, changes.published ?? null],
    )
    const published = changes.published === true && before[0]?.published === false
    const staged = published
      ? await stageIncidentEvent(tx, 'incident.updated', incident, {
          message: 'Published on the status pages',
          automatic: false,
          published: true,
          subscribers: changes.notifySubscribers,
        })
      : []
    return { view: await readPublicWording(tx, incident), staged }
  })
  if (staged.length > 0) await publishStagedEvents(ctx, { ids: staged }).catch(() => undefined)
  return view
}
