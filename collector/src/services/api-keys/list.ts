import type { Caller, CollectorContext } from '../../context.ts'
import type { ApiKeyView } from './schemas.ts'

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null)

/** The keys of the caller's organization, without their secrets (only hashes are stored). */
export async function listApiKeys(ctx: CollectorContext, caller: Caller): Promise<ApiKeyView[]> {
  const { rows } = await ctx.sql.query<{
    id: string
    name: string
    key_prefix: string
    permissions: string[]
    belongs_to: ApiKeyView['belongs_to']
    created_by: string | null
    created_at: Date
    expires_at: Date | null
    last_used_at: Date | null
  }>(
    `SELECT id, name, key_prefix, permissions, belongs_to, created_by, created_at, expires_at, last_used_at
       FROM monitoring.api_keys WHERE organization_id = $1 ORDER BY created_at DESC, id DESC`,
    [caller.organizationId],
  )
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.key_prefix,
    permissions: row.permissions,
    belongs_to: row.belongs_to,
    created_by: row.created_by,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: iso(row.expires_at),
    last_used_at: iso(row.last_used_at),
  }))
}
