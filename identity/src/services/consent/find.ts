import type { Sql } from '@guard/shared'
import { isSubset } from '../../oauth/scopes.ts'

/** Whether the user already consented to this client having at least these scopes. */
export async function hasConsent(sql: Sql, userId: string, clientId: string, scopes: string[]): Promise<boolean> {
  const { rows } = await sql.query<{ scopes: string[] }>(
    'SELECT scopes FROM identity.consents WHERE user_id = $1 AND client_id = $2',
    [userId, clientId],
  )
  const row = rows[0]
  return row !== undefined && isSubset(scopes, row.scopes)
}
