import type { Sql } from '@guard/shared'
import { REFRESH_TOKEN_SECONDS } from '../tokens/lifetimes.ts'

/** A registration with no token issued this long after it was made is abandoned. */
export const UNUSED_REGISTRATION_SECONDS = 24 * 3600

/**
 * Deletes dynamically registered clients nobody uses: never issued a token within a day, or
 * idle longer than a refresh token lives (none of theirs can still work). Their codes, consents
 * and grants go with them; the application registers again the next time it is used.
 */
export async function pruneUnusedClients(sql: Sql): Promise<number> {
  const { affectedRows } = await sql.query(
    `DELETE FROM identity.clients
      WHERE registered_dynamically
        AND ((last_token_at IS NULL AND created_at < now() - make_interval(secs => $1))
          OR last_token_at < now() - make_interval(secs => $2))`,
    [UNUSED_REGISTRATION_SECONDS, REFRESH_TOKEN_SECONDS],
  )
  return affectedRows ?? 0
}
