import type { Caller, CollectorContext } from '../../context.ts'
import { recordChange } from '../activity/record-change.ts'
import { deleteMonitorState } from '../monitor-state/delete.ts'
import { recomputeOrganizationSummaries } from '../summaries/organization.ts'
import { findHeartbeat } from './find.ts'

/** Removes the heartbeat (its token stops answering at once); stored pings stay until their retention ends. */
export async function deleteHeartbeat({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}): Promise<void> {
  const heartbeat = await findHeartbeat(ctx.sql, ctx.credentialKey, caller, input.id)
  await ctx.sql.transaction(async (tx) => {
    await tx.query('DELETE FROM monitoring.monitors WHERE id = $1 AND organization_id = $2', [
      heartbeat.id,
      heartbeat.organizationId,
    ])
    await deleteMonitorState(tx, heartbeat.id)
    await recomputeOrganizationSummaries(tx, [heartbeat.organizationId])
    await recordChange(tx, {
      organizationId: heartbeat.organizationId,
      kind: 'heartbeat',
      action: 'deleted',
      id: heartbeat.id,
      name: heartbeat.name,
    })
  })
}
