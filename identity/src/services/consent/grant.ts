import type { Sql } from '@guard/shared'

/** Remembers the consent, adding to scopes granted before so one narrower request never shrinks it. */
export async function grantConsent(sql: Sql, userId: string, clientId: string, scopes: string[]): Promise<void> {
  await sql.query(
    `INSERT INTO identity.consents (user_id, client_id, scopes) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, client_id) DO UPDATE
       SET scopes = ARRAY(SELECT DISTINCT unnest(identity.consents.scopes || EXCLUDED.scopes)), updated_at = now()`,
    [userId, clientId, scopes],
  )
}
