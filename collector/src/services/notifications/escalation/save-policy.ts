import { GuardError, newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'
import { organizationScope } from '../../access/organization.ts'
import { checkReferences } from '../routing/check-references.ts'
import { type PolicyInput, type PolicyView, policyInput } from '../routing/schemas.ts'

export interface PolicyRow {
  id: string
  organization_id: string
  name: string
  steps: PolicyView['steps']
  repeat: number
  repeat_after_minutes: number
  created_at: Date
  updated_at: Date
}

export const POLICY_COLUMNS = 'id, organization_id, name, steps, repeat, repeat_after_minutes, created_at, updated_at'

export const toPolicyView = (row: PolicyRow): PolicyView => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  steps: row.steps,
  repeat: row.repeat,
  repeatAfterMinutes: row.repeat_after_minutes,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
})

/** Creates an escalation policy, or replaces one (`id`); running escalations use the new steps from their next step on. */
export async function savePolicy({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: PolicyInput & { id?: string; organizationId?: string | undefined }
}): Promise<PolicyView> {
  const { id, organizationId: requested, ...fields } = input
  const policy = policyInput.parse(fields)
  const row = await ctx.sql
    .transaction(async (tx) => {
      let organizationId = organizationScope(caller, requested)
      if (id) {
        const { rows } = await tx.query<{ organization_id: string }>(
          'SELECT organization_id FROM monitoring.escalation_policies WHERE id = $1 AND organization_id = ANY($2) FOR UPDATE',
          [id, caller.organizationIds],
        )
        if (!rows[0]) throw new GuardError('NOT_FOUND', 'Escalation policy not found')
        organizationId = rows[0].organization_id
      }
      await checkReferences(tx, organizationId, { channelIds: policy.steps.flatMap((step) => step.channelIds) })
      const values = [policy.name, JSON.stringify(policy.steps), policy.repeat, policy.repeatAfterMinutes]
      const { rows } = id
        ? await tx.query<PolicyRow>(
            `UPDATE monitoring.escalation_policies SET name = $3, steps = $4, repeat = $5, repeat_after_minutes = $6,
                    updated_at = now() WHERE id = $1 AND organization_id = $2 RETURNING ${POLICY_COLUMNS}`,
            [id, organizationId, ...values],
          )
        : await tx.query<PolicyRow>(
            `INSERT INTO monitoring.escalation_policies (id, organization_id, name, steps, repeat, repeat_after_minutes)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${POLICY_COLUMNS}`,
            [newId(), organizationId, ...values],
          )
      return rows[0]!
    })
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505') {
        throw new GuardError('CONFLICT', 'The organization already has a policy with that name')
      }
      throw error
    })
  return toPolicyView(row)
}
