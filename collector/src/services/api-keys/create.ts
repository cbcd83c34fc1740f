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
}

export async function createApiKey(
  sql: Sql,
  input: { organizationId: string; name: string; permissions: string[] },
): Promise<CreatedApiKey> {
  const { key, prefix, hash } = generateApiKey()
  const id = newId()
  const { rows } = await sql.query<{ created_at: Date }>(
    `INSERT INTO monitoring.api_keys (id, organization_id, name, key_prefix, key_hash, permissions)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at`,
    [id, input.organizationId, input.name, prefix, hash, input.permissions],
  )
  return {
    id,
    name: input.name,
    key,
    prefix,
    permissions: input.permissions,
    createdAt: new Date(rows[0]!.created_at).toISOString(),
  }
}
