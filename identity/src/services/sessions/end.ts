import type { Sql } from '@guard/shared'
import { hashToken } from '../tokens/secret.ts'

/** Ends the browser session whose cookie holds `secretId`. */
export async function endSession(sql: Sql, secretId: string): Promise<void> {
  await sql.query('DELETE FROM identity.sessions WHERE id_hash = $1', [hashToken(secretId)])
}
