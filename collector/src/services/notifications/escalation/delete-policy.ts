import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'

/** Deletes a policy: routes using it keep notifying their own channels; running escalations end their steps. */
export async function deletePolicy({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
}) {
  const { affectedRows } = await ctx.sql.transaction(async (tx) => {
    await tx.query(
      `UPDATE monitoring.incident_escalations SET next_step_at = NULL, policy_id = NULL
        WHERE policy_id = $1 AND organization_id = ANY($2)`,
      [input.id, caller.organizationIds],
    )
    return tx.query('DELETE FROM monitoring.escalation_policies WHERE id = $1 AND organization_id = ANY($2)', [
      input.id,
      caller.organizationIds,
    ])
  })
  if (affectedRows === 0) throw new GuardError('NOT_FOUND', 'Escalation policy not found')
  return { id: input.id, deleted: true as const }
}
