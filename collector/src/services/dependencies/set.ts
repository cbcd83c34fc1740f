import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { findAnyMonitor } from './find.ts'
import { getDependencies } from './get.ts'
import { type DependenciesView, type SetDependenciesInput, setDependenciesInput } from './schemas.ts'

/**
 * Replaces the monitors this one depends on. Each must be a monitor of the same organization; a
 * monitor cannot depend on itself nor on anything that depends on it, however indirectly (a cycle
 * would let two failures silence each other).
 */
export async function setDependencies({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string } & SetDependenciesInput
}): Promise<DependenciesView> {
  const parsed = setDependenciesInput.safeParse({ dependsOn: input.dependsOn })
  if (!parsed.success) {
    throw new GuardError('VALIDATION_ERROR', parsed.error.issues.map((issue) => issue.message).join('; '))
  }
  const monitor = await findAnyMonitor(ctx.sql, caller, input.id, 'write')
  const parents = [...new Set(parsed.data.dependsOn)]
  if (parents.includes(monitor.id)) {
    throw new GuardError('VALIDATION_ERROR', 'dependsOn: a monitor cannot depend on itself')
  }
  await ctx.sql.transaction(async (tx) => {
    // One writer of an organization's dependency graph at a time: two saves that each close half of a
    // cycle would otherwise both pass the check below.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('monitor-dependencies:' || $1))::text`, [
      monitor.organizationId,
    ])
    if (parents.length > 0) {
      const { rows } = await tx.query<{ id: string }>(
        'SELECT id FROM monitoring.monitors WHERE organization_id = $1 AND id = ANY($2)',
        [monitor.organizationId, parents],
      )
      const missing = parents.length - rows.length
      // Counted, not named: the answer is the same for an id of another organization and for none.
      if (missing > 0) {
        throw new GuardError(
          'VALIDATION_ERROR',
          `dependsOn: ${missing} of the ids are not monitors of the organization`,
        )
      }
      const { rows: cycles } = await tx.query<{ root: string }>(
        `WITH RECURSIVE reach (root, id) AS (
           SELECT p, p FROM unnest($2::text[]) AS p
           UNION
           SELECT r.root, d.depends_on_id FROM monitoring.monitor_dependencies d JOIN reach r ON d.monitor_id = r.id
            WHERE r.id <> $1
         )
         SELECT root FROM reach WHERE id = $1 ORDER BY root LIMIT 1`,
        [monitor.id, parents],
      )
      if (cycles[0]) {
        throw new GuardError(
          'VALIDATION_ERROR',
          `dependsOn: ${cycles[0].root} depends on this monitor (directly or through others), which would make a cycle`,
        )
      }
    }
    await tx.query('DELETE FROM monitoring.monitor_dependencies WHERE monitor_id = $1', [monitor.id])
    if (parents.length > 0) {
      await tx.query(
        `INSERT INTO monitoring.monitor_dependencies (organization_id, monitor_id, depends_on_id)
         SELECT $1, $2, p FROM unnest($3::text[]) AS p`,
        [monitor.organizationId, monitor.id, parents],
      )
    }
  })
  return getDependencies({ ctx, caller, input: { id: monitor.id } })
}
