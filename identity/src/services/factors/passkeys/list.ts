import type { Sql } from '@guard/shared'
import type { PasskeyView } from './schemas.ts'

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null)

export async function listPasskeys(sql: Sql, userId: string): Promise<PasskeyView[]> {
  const { rows } = await sql.query<{
    id: string
    name: string
    device_type: string
    created_at: Date
    last_used_at: Date | null
  }>(
    `SELECT id, name, device_type, created_at, last_used_at FROM identity.passkeys
      WHERE user_id = $1 ORDER BY created_at`,
    [userId],
  )
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    synced: row.device_type === 'multiDevice',
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: iso(row.last_used_at),
  }))
}
