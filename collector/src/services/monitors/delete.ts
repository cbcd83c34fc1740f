import type { Caller, CollectorContext } from '../../context.ts'
import { recordChange } from '../activity/record-change.ts'
import { deleteMonitorState } from '../monitor-state/delete.ts'
import { recomputeOrganizationSummaries } from '../summaries/organization.ts'
import { findMonitor } from './find.ts'
import type { MonitorKind } from './schemas.ts'

/**
 * Removes the monitor and its schedule; probes drop it as soon as they see the KV delete. Stored
 * results stay in ClickHouse until their retention ends.
 */
export async function deleteMonitor({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { kind: MonitorKind; id: string }
}): Promise<void> {
  const monitor = await findMonitor(ctx.sql, caller, input.kind, input.id)
  await ctx.sql.transaction(async (tx) => {
    await tx.query('DELETE FROM monitoring.monitors WHERE id = $1 AND organization_id = $2', [
      monitor.id,
      monitor.organizationId,
    ])
    await deleteMonitorState(tx, monitor.id)
    // Its summary rows went with it (cascade); the organization's totals must not keep counting them.
    await recomputeOrganizationSummaries(tx, [monitor.organizationId])
    await recordChange(tx, {
      organizationId: monitor.organizationId,
      kind: monitor.kind,
      action: 'deleted',
      id: monitor.id,
      name: monitor.name,
    })
  })
  await ctx.monitors.delete(monitor.id)
}
