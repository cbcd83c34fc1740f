import { newId, type Sql } from '@guard/shared'
import { hashToken, randomToken } from '../tokens/secret.ts'

export const ADMIN_TOKEN_PREFIX = 'guard_admin_'

/**
 * On the first start, an admin API token for the operator's CLI. Returned only when created now
 * (the caller saves it to credentials.json); only its SHA-256 is stored.
 */
export async function ensureAdminToken(sql: Sql): Promise<string | undefined> {
  return sql.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('guard.bootstrap-admin-token'))")
    const { rows } = await tx.query('SELECT 1 FROM identity.admin_tokens LIMIT 1')
    if (rows.length > 0) return undefined
    const token = `${ADMIN_TOKEN_PREFIX}${randomToken()}`
    await tx.query('INSERT INTO identity.admin_tokens (id, token_hash, name) VALUES ($1, $2, $3)', [
      newId(),
      hashToken(token),
      'created on first start',
    ])
    return token
  })
}
