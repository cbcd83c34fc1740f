import type { Sql } from '@guard/shared'

export interface Client {
  id: string
  name: string
  /** Public clients (browser apps, native apps) hold no secret and always use PKCE. */
  isPublic: boolean
  secretHash: string | null
  redirectUris: string[]
  requirePkce: boolean
  allowedScopes: string[]
  /** First-party clients skip the consent page. */
  firstParty: boolean
  postLogoutRedirectUris: string[]
  /** Registered by the application itself (RFC 7591): its name is its own claim. */
  registeredDynamically: boolean
}

interface ClientRow {
  id: string
  name: string
  secret_hash: string | null
  redirect_uris: string[]
  require_pkce: boolean
  allowed_scopes: string[]
  first_party: boolean
  post_logout_redirect_uris: string[]
  registered_dynamically: boolean
}

export async function findClient(sql: Sql, clientId: string): Promise<Client | undefined> {
  const { rows } = await sql.query<ClientRow>(
    `SELECT id, name, secret_hash, redirect_uris, require_pkce, allowed_scopes, first_party, post_logout_redirect_uris,
            registered_dynamically
       FROM identity.clients WHERE id = $1`,
    [clientId],
  )
  const row = rows[0]
  if (!row) return undefined
  return {
    id: row.id,
    name: row.name,
    isPublic: row.secret_hash === null,
    secretHash: row.secret_hash,
    redirectUris: row.redirect_uris,
    requirePkce: row.require_pkce || row.secret_hash === null,
    allowedScopes: row.allowed_scopes,
    firstParty: row.first_party,
    postLogoutRedirectUris: row.post_logout_redirect_uris,
    registeredDynamically: row.registered_dynamically,
  }
}
