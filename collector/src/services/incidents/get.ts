import type { Caller, CollectorContext } from '../../context.ts'
import { dependentsAffected } from '../dependencies/affected.ts'
import { findIncident, toIncidentView } from './find.ts'
import { listIncidentUpdates } from './list-updates.ts'

/** The incident with its updates, oldest first, and the dependents whose failures it explains. */
export async function getIncident(ctx: CollectorContext, caller: Caller, id: string) {
  const row = await findIncident(ctx.sql, caller, id)
  return {
    ...toIncidentView(row),
    updates: await listIncidentUpdates(ctx, caller, id),
    dependentsAffected: await dependentsAffected(ctx.sql, row.id),
  }
}
