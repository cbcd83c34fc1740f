import type { Sql } from '@guard/shared'
import { z } from 'zod'
import { listMembersWithoutSecondFactor } from './members-without.ts'
import { type SecondFactorPolicy, secondFactorPolicy } from './methods.ts'

export const organizationSecondFactorView = z
  .object({
    secondFactor: secondFactorPolicy,
    membersWithoutSecondFactor: z
      .array(z.object({ userId: z.string(), email: z.string(), role: z.string() }))
      .describe('members with neither a passkey nor an authenticator app: sent to enrol at their next sign-in'),
  })
  .meta({ id: 'OrganizationSecondFactorView' })
export type OrganizationSecondFactorView = z.infer<typeof organizationSecondFactorView>

export async function getOrganizationSecondFactor(
  sql: Sql,
  organizationId: string,
): Promise<OrganizationSecondFactorView> {
  const { rows } = await sql.query<{ second_factor: SecondFactorPolicy }>(
    'SELECT second_factor FROM identity.organizations WHERE id = $1',
    [organizationId],
  )
  return {
    secondFactor: rows[0]?.second_factor ?? 'off',
    membersWithoutSecondFactor: await listMembersWithoutSecondFactor(sql, organizationId),
  }
}
