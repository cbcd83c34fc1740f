import { timingSafeEqual } from 'node:crypto'
import { GuardError, type Sql } from '@guard/shared'
import type { Caller } from '../../context.ts'
import { hashApiKey, looksLikeApiKey } from './secret.ts'

const invalid = () => new GuardError('UNAUTHORIZED', 'Invalid or missing authentication token')

/** Resolves a presented API key to its caller, or throws UNAUTHORIZED. */
export async function verifyApiKey(sql: Sql, presented: string): Promise<Caller> {
  return (await verifyApiKeyExpiring(sql, presented)).caller
}

/** As verifyApiKey, with when the key stops being valid (null: never), for callers that keep the answer. */
export async function verifyApiKeyExpiring(
  sql: Sql,
  presented: string,
): Promise<{ caller: Caller; expiresAt: number | null }> {
  if (!looksLikeApiKey(presented)) throw invalid()
  const hash = hashApiKey(presented)
  const { rows } = await sql.query<{
    id: string
    organization_id: string
    key_hash: string
    permissions: string[]
    expires_at: Date | null
  }>('SELECT id, organization_id, key_hash, permissions, expires_at FROM monitoring.api_keys WHERE key_hash = $1', [
    hash,
  ])
  const row = rows[0]
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(hash))) throw invalid()
  if (row.expires_at && new Date(row.expires_at).getTime() <= Date.now()) {
    throw new GuardError('UNAUTHORIZED', 'API key has expired')
  }
  // Last-used time is informational: losing one update is harmless, waiting for it is not, and a
  // minute's precision spares a busy key a row write per request.
  sql
    .query(
      `UPDATE monitoring.api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [row.id],
    )
    .catch(() => {})
  return {
    caller: {
      principal: { kind: 'api_key', id: row.id },
      organizationId: row.organization_id,
      organizationIds: [row.organization_id],
      permissions: row.permissions,
    },
    expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : null,
  }
}
