import type { Sql } from '@guard/shared'
import { type ClientView, getClient } from './list.ts'

/** Its codes, consents and token families go with it (ON DELETE CASCADE), so its tokens stop at userinfo. */
export async function deleteClient(sql: Sql, id: string): Promise<ClientView> {
  const client = await getClient(sql, id)
  await sql.query('DELETE FROM identity.clients WHERE id = $1', [id])
  return client
}
