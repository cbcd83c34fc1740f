import { GuardError, type Sql } from '@guard/shared'
import { z } from 'zod'

export const clientView = z
  .object({
    client_id: z.string(),
    name: z.string(),
    public: z.boolean(),
    redirect_uris: z.array(z.string()),
    post_logout_redirect_uris: z.array(z.string()),
    require_pkce: z.boolean(),
    first_party: z.boolean(),
    allowed_scopes: z.array(z.string()),
    created_at: z.iso.datetime(),
    registered_dynamically: z.boolean().describe('registered by the application itself (RFC 7591); pruned when unused'),
    last_token_at: z.iso.datetime().nullable().describe('when a token was last issued to it'),
  })
  .meta({ id: 'AdminClient' })

export type ClientView = z.infer<typeof clientView>

interface Row {
  id: string
  name: string
  secret_hash: string | null
  redirect_uris: string[]
  post_logout_redirect_uris: string[]
  require_pkce: boolean
  first_party: boolean
  allowed_scopes: string[]
  created_at: Date
  registered_dynamically: boolean
  last_token_at: Date | null
}

const toView = (row: Row): ClientView => ({
  client_id: row.id,
  name: row.name,
  public: row.secret_hash === null,
  redirect_uris: row.redirect_uris,
  post_logout_redirect_uris: row.post_logout_redirect_uris,
  require_pkce: row.require_pkce || row.secret_hash === null,
  first_party: row.first_party,
  allowed_scopes: row.allowed_scopes,
  created_at: new Date(row.created_at).toISOString(),
  registered_dynamically: row.registered_dynamically,
  last_token_at: row.last_token_at ? new Date(row.last_token_at).toISOString() : null,
})

/** Never the secret (only its hash is stored). */
export async function listClients(sql: Sql): Promise<ClientView[]> {
  const { rows } = await sql.query<Row>('SELECT * FROM identity.clients ORDER BY created_at, id')
  return rows.map(toView)
}

export async function getClient(sql: Sql, id: string): Promise<ClientView> {
  const { rows } = await sql.query<Row>('SELECT * FROM identity.clients WHERE id = $1', [id])
  const row = rows[0]
  if (!row) throw new GuardError('NOT_FOUND', `client ${id} not found`)
  return toView(row)
}
