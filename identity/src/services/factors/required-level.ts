import type { Sql } from '@guard/shared'
import { type Acr, acrForPolicy, type SecondFactorPolicy, strictest } from './methods.ts'

/**
 * What a sign-in of this user must have proved: the strictest policy among the organizations the
 * user belongs to (their data is what any token reaches), raised by what the client asked for.
 */
export async function requiredLevel(sql: Sql, input: { userId: string; requested: Acr | undefined }): Promise<Acr> {
  const { rows } = await sql.query<{ second_factor: SecondFactorPolicy }>(
    `SELECT DISTINCT o.second_factor FROM identity.organizations o
       JOIN identity.memberships m ON m.organization_id = o.id WHERE m.user_id = $1`,
    [input.userId],
  )
  return strictest([
    ...rows.map((row) => acrForPolicy(row.second_factor)),
    ...(input.requested ? [input.requested] : []),
  ])
}
