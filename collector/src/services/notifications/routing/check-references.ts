import { GuardError, type Sql } from '@guard/shared'

/** Channels and a policy named by a route or a policy must be the organization's own. */
export async function checkReferences(
  tx: Sql,
  organizationId: string,
  references: { channelIds: readonly string[]; policyId?: string | null },
): Promise<void> {
  const wanted = [...new Set(references.channelIds)]
  if (wanted.length > 0) {
    const { rows } = await tx.query<{ id: string }>(
      'SELECT id FROM monitoring.notification_channels WHERE organization_id = $1 AND id = ANY($2)',
      [organizationId, wanted],
    )
    const missing = wanted.filter((id) => !rows.some((row) => row.id === id))
    // Counted, not named: the answer is the same for an id of another organization and for none.
    if (missing.length > 0) {
      throw new GuardError(
        'VALIDATION_ERROR',
        `channelIds: ${missing.length} of the ids are not channels of the organization`,
      )
    }
  }
  if (references.policyId) {
    const { rows } = await tx.query(
      'SELECT 1 FROM monitoring.escalation_policies WHERE organization_id = $1 AND id = $2',
      [organizationId, references.policyId],
    )
    if (rows.length === 0)
      throw new GuardError('VALIDATION_ERROR', `escalationPolicyId: no policy ${references.policyId}`)
  }
}
