import type { Sql } from '@guard/shared'
import { isSubset } from '../../oauth/scopes.ts'

/** Whether the user already consented to this client having at least these scopes, on this resource. */
export async function hasConsent(
  sql: Sql,
  userId: string,
  clientId: string,
  wanted: { scopes: string[]; resource: string | undefined },
): Promise<boolean> {
  const { rows } = await sql.query<{ scopes: string[]; resources: string[] }>(
    'SELECT scopes, resources FROM identity.consents WHERE user_id = $1 AND client_id = $2',
    [userId, clientId],
  )
  const row = rows[0]
  if (row === undefined || !isSubset(wanted.scopes, row.scopes)) return false
  return wanted.resource === undefined || row.resources.includes(wanted.resource)
}
