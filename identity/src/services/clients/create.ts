import { GuardError, newId, type Sql } from '@guard/shared'
import { FIRST_PARTY_SCOPES, isScope, SUPPORTED_SCOPES } from '../../oauth/scopes.ts'
import { hashToken, randomToken } from '../tokens/secret.ts'
import { isLoopbackRedirect } from './redirect-uri.ts'

export interface NewClient {
  name: string
  redirectUris: string[]
  isPublic: boolean
  requirePkce: boolean
  firstParty: boolean
  allowedScopes?: string[] | undefined
  /** Where RP-initiated logout may send the user afterwards; matched exactly. */
  postLogoutRedirectUris?: string[] | undefined
  /** RFC 7591 registrations: shown as unverified on the consent page, pruned when left unused. */
  registeredDynamically?: boolean
}

export interface CreatedClient {
  client_id: string
  /** Present for confidential clients only, and only in this answer: just its hash is stored. */
  client_secret?: string
  name: string
  redirect_uris: string[]
  public: boolean
  require_pkce: boolean
  first_party: boolean
  allowed_scopes: string[]
  post_logout_redirect_uris: string[]
}

/** Redirect URIs are compared exactly later, so they are checked strictly now. */
export function checkRedirectUri(uri: string, isPublic: boolean): void {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    throw new GuardError('VALIDATION_ERROR', `redirect URI ${uri} is not an absolute URL`)
  }
  if (url.hash) throw new GuardError('VALIDATION_ERROR', `redirect URI ${uri} must not have a fragment`)
  // Credentials in a redirect URI would travel with every code sent there, and show on the consent page.
  if (url.username || url.password) {
    throw new GuardError('VALIDATION_ERROR', `redirect URI ${uri} must not carry a user name or password`)
  }
  const nativeScheme = isPublic && url.protocol.slice(0, -1).includes('.')
  if (url.protocol !== 'https:' && !isLoopbackRedirect(url) && !nativeScheme) {
    throw new GuardError(
      'VALIDATION_ERROR',
      `redirect URI ${uri} must use https, http on a loopback address, or (public clients) a reverse-domain scheme`,
    )
  }
}

export async function createClient(sql: Sql, input: NewClient): Promise<CreatedClient> {
  if (input.redirectUris.length === 0) throw new GuardError('VALIDATION_ERROR', 'at least one redirect URI is required')
  for (const uri of input.redirectUris) checkRedirectUri(uri, input.isPublic)
  const postLogoutRedirectUris = input.postLogoutRedirectUris ?? []
  for (const uri of postLogoutRedirectUris) checkRedirectUri(uri, input.isPublic)
  // `admin` is granted only when asked for at registration: it opens the admin API to admin users.
  const allowedScopes = input.allowedScopes ?? [...SUPPORTED_SCOPES, ...(input.firstParty ? FIRST_PARTY_SCOPES : [])]
  const unknown = allowedScopes.filter((scope) => !isScope(scope))
  if (unknown.length > 0) throw new GuardError('VALIDATION_ERROR', `unsupported scopes: ${unknown.join(', ')}`)
  const firstPartyOnly = allowedScopes.filter((scope) => FIRST_PARTY_SCOPES.includes(scope))
  if (!input.firstParty && firstPartyOnly.length > 0) {
    throw new GuardError(
      'VALIDATION_ERROR',
      `only first-party clients may have the scopes ${firstPartyOnly.join(', ')}`,
    )
  }
  // A public client cannot keep a secret, so PKCE is what binds its code to it.
  const requirePkce = input.isPublic || input.requirePkce
  const id = newId()
  const secret = input.isPublic ? undefined : randomToken()
  await sql.query(
    `INSERT INTO identity.clients (id, name, secret_hash, redirect_uris, require_pkce, allowed_scopes, first_party,
                                   post_logout_redirect_uris, registered_dynamically)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      input.name,
      secret ? hashToken(secret) : null,
      input.redirectUris,
      requirePkce,
      allowedScopes,
      input.firstParty,
      postLogoutRedirectUris,
      input.registeredDynamically ?? false,
    ],
  )
  return {
    client_id: id,
    ...(secret ? { client_secret: secret } : {}),
    name: input.name,
    redirect_uris: input.redirectUris,
    public: input.isPublic,
    require_pkce: requirePkce,
    first_party: input.firstParty,
    allowed_scopes: allowedScopes,
    post_logout_redirect_uris: postLogoutRedirectUris,
  }
}
