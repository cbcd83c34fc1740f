import { newId, type Sql } from '@guard/shared'
import { generateApiKey } from './secret.ts'

export type ApiKeyOwner = 'user' | 'organization'

export interface CreatedApiKey {
  id: string
  name: string
  /** The only time the key is ever returned: it is stored hashed. */
  key: string
  prefix: string
  permissions: string[]
  belongsTo: ApiKeyOwner
  createdBy: string | null
  createdAt: string
  expiresAt: string | null
}

/**
 * Stores a new key. A key created by a user belongs to that user unless `belongsTo` says the
 * organization; one created by no user (the bootstrap key) can only belong to the organization.
 */
export async function createApiKey(
  sql: Sql,
  input: {
    organizationId: string
    name: string
    permissions: string[]
    expiresAt?: string | undefined
    createdBy?: string | undefined
    belongsTo?: ApiKeyOwner | undefined
  },
): Promise<CreatedApiKey> {
  const { key, prefix, hash } = generateApiKey()
  const id = newId()
  const belongsTo = input.createdBy === undefined ? 'organization' : (input.belongsTo ?? 'user')
  const { rows } = await sql.query<{ created_at: Date; expires_at: Date | null }>(
    `INSERT INTO monitoring.api_keys (id, organization_id, name, key_prefix, key_hash, permissions, expires_at, created_by,
                                      belongs_to)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING created_at, expires_at`,
    [
      id,
      input.organizationId,
      input.name,
      prefix,
      hash,
      input.permissions,
      input.expiresAt ?? null,
      input.createdBy ?? null,
      belongsTo,
    ],
  )
  const row = rows[0]!
  return {
    id,
    name: input.name,
    key,
    prefix,
    permissions: input.permissions,
    belongsTo,
    createdBy: input.createdBy ?? null,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: row.expires_at ? new Date(row.expires_at).toISOString() : null,
  }
}
