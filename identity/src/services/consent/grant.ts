import type { Sql } from '@guard/shared'

/**
 * Remembers the consent, adding to the scopes and resources granted before so one narrower
 * request never shrinks it.
 */
export async function grantConsent(
  sql: Sql,
  userId: string,
  clientId: string,
  granted: { scopes: string[]; resource: string | undefined },
): Promise<void> {
  await sql.query(
    `INSERT INTO identity.consents (user_id, client_id, scopes, resources) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, client_id) DO UPDATE
       SET scopes = ARRAY(SELECT DISTINCT unnest(identity.consents.scopes || EXCLUDED.scopes)),
           resources = ARRAY(SELECT DISTINCT unnest(identity.consents.resources || EXCLUDED.resources)),
           updated_at = now()`,
    [userId, clientId, granted.scopes, granted.resource === undefined ? [] : [granted.resource]],
  )
}
