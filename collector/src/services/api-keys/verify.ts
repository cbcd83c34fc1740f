import { timingSafeEqual } from 'node:crypto'
import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { intersectPermissions, permissionsOfRole } from '../auth/permissions.ts'
import type { ApiKeyOwner } from './create.ts'
import { hashApiKey, looksLikeApiKey } from './secret.ts'

const invalid = () => new GuardError('UNAUTHORIZED', 'Invalid or missing authentication token')

type VerifyContext = Pick<CollectorContext, 'sql' | 'members'>

/** Resolves a presented API key to its caller, or throws UNAUTHORIZED. */
export async function verifyApiKey({ ctx, input }: { ctx: VerifyContext; input: { key: string } }): Promise<Caller> {
  return (await verifyApiKeyExpiring({ ctx, input })).caller
}

/**
 * As verifyApiKey, with when the key stops being valid (null: never), for callers that keep the
 * answer. A user's key acts with at most its creator's rights now: identity is asked for their
 * role, and a creator who left the organization or was disabled leaves a key that works no more.
 */
export async function verifyApiKeyExpiring({
  ctx,
  input,
}: {
  ctx: VerifyContext
  input: { key: string }
}): Promise<{ caller: Caller; expiresAt: number | null }> {
  if (!looksLikeApiKey(input.key)) throw invalid()
  const hash = hashApiKey(input.key)
  const { rows } = await ctx.sql.query<{
    id: string
    organization_id: string
    key_hash: string
    permissions: string[]
    expires_at: Date | null
    belongs_to: ApiKeyOwner
    created_by: string | null
  }>(
    `SELECT id, organization_id, key_hash, permissions, expires_at, belongs_to, created_by
       FROM monitoring.api_keys WHERE key_hash = $1`,
    [hash],
  )
  const row = rows[0]
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(hash))) throw invalid()
  if (row.expires_at && new Date(row.expires_at).getTime() <= Date.now()) {
    throw new GuardError('UNAUTHORIZED', 'API key has expired')
  }
  let permissions = row.permissions
  if (row.belongs_to === 'user' && row.created_by !== null && ctx.members) {
    const role = await ctx.members.roleOf(row.organization_id, row.created_by)
    if (role === null) {
      throw new GuardError('UNAUTHORIZED', 'The user who created this API key no longer has access to its organization')
    }
    permissions = intersectPermissions(row.permissions, permissionsOfRole(role))
  }
  // Last-used time is informational: losing one update is harmless, waiting for it is not, and a
  // minute's precision spares a busy key a row write per request.
  ctx.sql
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
      permissions,
    },
    expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : null,
  }
}
