import type { Sql } from '@guard/shared'
import { formatScope, ORGANIZATION_SCOPES } from '../../oauth/scopes.ts'
import { listOrganizationsOf } from '../organizations/list-for-user.ts'
import { userClaims } from '../users/claims.ts'
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS } from './lifetimes.ts'
import { hashToken, randomToken } from './secret.ts'
import { type Signer, signAccessToken, signIdToken } from './sign.ts'

export interface TokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  refresh_token: string
  id_token?: string
  scope: string
}

export interface IssueInput {
  grantId: string
  clientId: string
  userId: string
  /** What this access token may do: the grant's scopes or, on refresh, a subset. */
  scopes: string[]
  /** The scopes the new refresh token carries: always the grant's, never widened or narrowed. */
  refreshScopes: string[]
  /** RFC 8707: the access token's only audience; undefined: identity and the monitoring API. */
  resource: string | undefined
  authTime: Date
  /** What the sign-in behind the grant proved (RFC 8176): the ID token's amr, and its acr. */
  amr: readonly string[]
  /** Only on the code exchange: a refreshed ID token carries no nonce (OIDC Core §12.2). */
  nonce: string | undefined
}

/** Signs the access (and ID) token and stores the access token's id and the refresh token's hash. */
export async function issueTokens(sql: Sql, signer: Signer, input: IssueInput): Promise<TokenResponse> {
  const claims = await userClaims(sql, input.userId, input.scopes)
  if (!claims) throw new Error(`user ${input.userId} of grant ${input.grantId} is gone`)
  const { sub: _sub, ...scoped } = claims
  const scope = formatScope(input.scopes)
  // read, write and api-keys:write reach the monitoring data, which the collector scopes by the organizations claim.
  const organizations =
    scoped.organizations ??
    (input.scopes.some((granted) => ORGANIZATION_SCOPES.includes(granted))
      ? await listOrganizationsOf(sql, input.userId)
      : undefined)
  const access = await signAccessToken(signer, {
    userId: input.userId,
    clientId: input.clientId,
    scope,
    audience: input.resource,
    extra: organizations ? { organizations } : {},
  })
  await sql.query('UPDATE identity.clients SET last_token_at = now() WHERE id = $1', [input.clientId])
  await sql.query('INSERT INTO identity.access_tokens (jti, grant_id, expires_at) VALUES ($1, $2, $3)', [
    access.jti,
    input.grantId,
    access.expiresAt,
  ])
  const refreshToken = randomToken()
  await sql.query(
    `INSERT INTO identity.refresh_tokens (token_hash, grant_id, scopes, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [hashToken(refreshToken), input.grantId, input.refreshScopes, REFRESH_TOKEN_SECONDS],
  )
  const idToken = input.scopes.includes('openid')
    ? await signIdToken(signer, {
        userId: input.userId,
        clientId: input.clientId,
        authTime: input.authTime,
        amr: input.amr,
        nonce: input.nonce,
        accessToken: access.token,
        claims: scoped,
      })
    : undefined
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refreshToken,
    ...(idToken ? { id_token: idToken } : {}),
    scope,
  }
}
