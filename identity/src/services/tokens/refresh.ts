import type { Sql } from '@guard/shared'
import { OAuthError } from '../../oauth/oauth-error.ts'
import { knownResource } from '../../oauth/resources.ts'
import { isSubset, parseScope } from '../../oauth/scopes.ts'
import type { Client } from '../clients/client.ts'
import { issueTokens, type TokenResponse } from './issue.ts'
import { revokeGrant } from './revoke-grant.ts'
import { hashToken } from './secret.ts'
import type { Signer } from './sign.ts'

interface RefreshRow {
  grant_id: string
  scopes: string[]
  expired: boolean
  rotated_at: Date | null
  client_id: string
  user_id: string
  auth_time: Date
  amr: string[]
  revoked_at: Date | null
  resource: string | null
}

/**
 * The refresh_token grant with rotation: every use yields a new refresh token, and presenting
 * one already rotated revokes the whole family (OAuth 2.0 Security BCP §4.14.2), since either
 * the client or an attacker holds a stolen copy.
 */
export async function refreshTokens(
  sql: Sql,
  signer: Signer & { resources: readonly string[] },
  client: Client,
  input: { refreshToken: string | undefined; scope: string | undefined; resource: string | undefined },
): Promise<TokenResponse> {
  if (!input.refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required')
  const resource = knownResource(signer.resources, input.resource)
  const tokenHash = hashToken(input.refreshToken)
  const { rows } = await sql.query<RefreshRow>(
    `SELECT r.grant_id, r.scopes, r.expires_at <= now() AS expired, r.rotated_at,
            g.client_id, g.user_id, g.auth_time, g.amr, g.revoked_at, g.resource
       FROM identity.refresh_tokens r JOIN identity.grants g ON g.id = r.grant_id
      WHERE r.token_hash = $1`,
    [tokenHash],
  )
  const token = rows[0]
  if (!token) throw new OAuthError('invalid_grant', 'the refresh token is invalid')
  // Not revoked here: another client presenting it proves nothing about the owner's copy.
  if (token.client_id !== client.id)
    throw new OAuthError('invalid_grant', 'the refresh token was issued to another client')
  if (token.revoked_at) throw new OAuthError('invalid_grant', 'the refresh token has been revoked')
  if (token.rotated_at) {
    await revokeGrant(sql, token.grant_id)
    throw new OAuthError('invalid_grant', 'the refresh token was already used; its token family is revoked')
  }
  if (token.expired) throw new OAuthError('invalid_grant', 'the refresh token has expired')
  const scopes = input.scope === undefined ? token.scopes : parseScope(input.scope)
  if (scopes.length === 0 || !isSubset(scopes, token.scopes)) {
    throw new OAuthError('invalid_scope', 'a refresh may only keep or narrow the granted scopes')
  }
  // The family keeps the resource its authorization was for: a refresh cannot move it elsewhere.
  if (resource !== undefined && resource !== token.resource) {
    throw new OAuthError('invalid_target', 'resource is not the one the authorization was for')
  }

  const rotated = await sql.query(
    'UPDATE identity.refresh_tokens SET rotated_at = now() WHERE token_hash = $1 AND rotated_at IS NULL',
    [tokenHash],
  )
  if (rotated.affectedRows === 0) {
    await revokeGrant(sql, token.grant_id)
    throw new OAuthError('invalid_grant', 'the refresh token was already used; its token family is revoked')
  }
  return issueTokens(sql, signer, {
    grantId: token.grant_id,
    clientId: client.id,
    userId: token.user_id,
    scopes,
    refreshScopes: token.scopes,
    resource: token.resource ?? undefined,
    authTime: new Date(token.auth_time),
    amr: token.amr,
    nonce: undefined,
  })
}
