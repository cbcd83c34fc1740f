import type { Caller, CollectorContext } from '../../../context.ts'
import { organizationScope } from '../../access/organization.ts'
import { POLICY_COLUMNS, type PolicyRow, toPolicyView } from './save-policy.ts'

export async function listPolicies({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { organizationId?: string | undefined }
}) {
  const { rows } = await ctx.sql.query<PolicyRow>(
    `SELECT ${POLICY_COLUMNS} FROM monitoring.escalation_policies WHERE organization_id = $1 ORDER BY name, id`,
    [organizationScope(caller, input.organizationId)],
  )
  return rows.map(toPolicyView)
}
