import type { Sql } from '@guard/shared'
import { FIRST_PARTY_SCOPES, SUPPORTED_SCOPES } from '../../oauth/scopes.ts'
import { findClient } from './client.ts'
import { checkRedirectUri, createClient } from './create.ts'

export interface FirstPartyClientRequest {
  /** The client registered before, if the caller has one: its addresses are extended, its secret kept. */
  clientId?: string | undefined
  name: string
  redirectUris: string[]
  postLogoutRedirectUris: string[]
}

export interface FirstPartyClient {
  client_id: string
  /** Only when the client was created by this call; afterwards only its hash exists. */
  client_secret?: string
}

/**
 * Registers (or keeps up to date) a confidential, first-party client for another Guard process,
 * such as the collector's web console: authorization code with PKCE, every scope but `admin`
 * (the first-party `api-keys:write` included), no consent page. Registering again with the same client id adds addresses
 * (a collector reached at a new URL) and never rotates the secret, so replicas keep working.
 */
export async function ensureFirstPartyClient(sql: Sql, input: FirstPartyClientRequest): Promise<FirstPartyClient> {
  for (const uri of [...input.redirectUris, ...input.postLogoutRedirectUris]) checkRedirectUri(uri, false)
  const existing = input.clientId ? await findClient(sql, input.clientId) : undefined
  if (existing && !existing.isPublic && existing.firstParty) {
    const redirectUris = [...new Set([...existing.redirectUris, ...input.redirectUris])]
    const postLogout = [...new Set([...existing.postLogoutRedirectUris, ...input.postLogoutRedirectUris])]
    await sql.query(
      'UPDATE identity.clients SET redirect_uris = $2, post_logout_redirect_uris = $3, require_pkce = true WHERE id = $1',
      [existing.id, redirectUris, postLogout],
    )
    return { client_id: existing.id }
  }
  const created = await createClient(sql, {
    name: input.name,
    redirectUris: input.redirectUris,
    postLogoutRedirectUris: input.postLogoutRedirectUris,
    isPublic: false,
    requirePkce: true,
    firstParty: true,
    allowedScopes: [...SUPPORTED_SCOPES, ...FIRST_PARTY_SCOPES],
  })
  return { client_id: created.client_id, ...(created.client_secret ? { client_secret: created.client_secret } : {}) }
}
