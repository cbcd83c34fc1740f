import { GuardError, type Sql } from '@guard/shared'
import { z } from 'zod'
import { type SecondFactorPolicy, secondFactorPolicy } from './methods.ts'

export const organizationSecondFactor = z
  .object({ secondFactor: secondFactorPolicy })
  .strict()
  .meta({ id: 'OrganizationSecondFactor' })

/** Sets whether the organization's members must sign in with a second factor, and which. */
export async function setOrganizationSecondFactor(
  sql: Sql,
  input: { organizationId: string; policy: SecondFactorPolicy },
): Promise<void> {
  const policy = secondFactorPolicy.parse(input.policy)
  const { affectedRows } = await sql.query('UPDATE identity.organizations SET second_factor = $2 WHERE id = $1', [
    input.organizationId,
    policy,
  ])
  if (affectedRows === 0) throw new GuardError('NOT_FOUND', `organization ${input.organizationId} not found`)
}
