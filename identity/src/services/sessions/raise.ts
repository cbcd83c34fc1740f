import type { Sql } from '@guard/shared'

/**
 * Records a second factor proved in a session already signed in (a step-up): its methods grow and
 * its auth_time becomes now, the time of the latest authentication (OIDC Core §2).
 */
export async function raiseSession(sql: Sql, input: { sessionId: string; amr: readonly string[] }): Promise<void> {
  await sql.query('UPDATE identity.sessions SET amr = $2, auth_time = now() WHERE id = $1', [
    input.sessionId,
    [...input.amr],
  ])
}
