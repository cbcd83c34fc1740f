import { newId, type Sql } from '@guard/shared'
import { generateApiKey } from './secret.ts'

export interface CreatedApiKey {
  id: string
  name: string
  /** The only time the key is ever returned: it is stored hashed. */
  key: string
  prefix: string
  permissions: string[]
  createdAt: string
  expiresAt: string | null
}

export async function createApiKey(
  sql: Sql,
  input: {
    organizationId: string
    name: string
    permissions: string[]
    expiresAt?: string | undefined
    createdBy?: string | undefined
  },
): Promise<CreatedApiKey> {
  const { key, prefix, hash } = generateApiKey()
  const id = newId()
  const { rows } = await sql.query<{ created_at: Date; expires_at: Date | null }>(
    `INSERT INTO monitoring.api_keys (id, organization_id, name, key_prefix, key_hash, permissions, expires_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING created_at, expires_at`,
    [
      id,
      input.organizationId,
      input.name,
      prefix,
      hash,
      input.permissions,
      input.expiresAt ?? null,
      input.createdBy ?? null,
    ],
  )
  const row = rows[0]!
  return {
    id,
    name: input.name,
    key,
    prefix,
    permissions: input.permissions,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: row.expires_at ? new Date(row.expires_at).toISOString() : null,
  }
}
