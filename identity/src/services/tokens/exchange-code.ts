import type { Sql } from '@guard/shared'
import { OAuthError } from '../../oauth/oauth-error.ts'
import { knownResource } from '../../oauth/resources.ts'
import type { Client } from '../clients/client.ts'
import { issueTokens, type TokenResponse } from './issue.ts'
import { CODE_VERIFIER, verifierMatches } from './pkce.ts'
import { revokeGrant } from './revoke-grant.ts'
import { hashToken } from './secret.ts'
import type { Signer } from './sign.ts'

interface CodeRow {
  grant_id: string
  client_id: string
  user_id: string
  redirect_uri: string
  scopes: string[]
  resource: string | null
  code_challenge: string | null
  nonce: string | null
  auth_time: Date
  amr: string[]
  expired: boolean
  used_at: Date | null
}

const invalidGrant = (why: string) => new OAuthError('invalid_grant', why)

/** The authorization_code grant (RFC 6749 §4.1.3 with RFC 7636). Every refusal is invalid_grant. */
export async function exchangeCode(
  sql: Sql,
  signer: Signer & { resources: readonly string[] },
  client: Client,
  input: {
    code: string | undefined
    redirectUri: string | undefined
    codeVerifier: string | undefined
    resource: string | undefined
  },
): Promise<TokenResponse> {
  if (!input.code) throw new OAuthError('invalid_request', 'code is required')
  const resource = knownResource(signer.resources, input.resource)
  const codeHash = hashToken(input.code)
  const { rows } = await sql.query<CodeRow>(
    `SELECT grant_id, client_id, user_id, redirect_uri, scopes, resource, code_challenge, nonce, auth_time, amr,
            expires_at <= now() AS expired, used_at
       FROM identity.authorization_codes WHERE code_hash = $1`,
    [codeHash],
  )
  const code = rows[0]
  if (!code) throw invalidGrant('the authorization code is invalid')
  if (code.client_id !== client.id) throw invalidGrant('the authorization code was issued to another client')
  if (code.used_at) {
    // RFC 6749 §4.1.2: a replayed code may mean it leaked; what its first use issued is revoked.
    await revokeGrant(sql, code.grant_id)
    throw invalidGrant('the authorization code was already used; tokens issued from it are revoked')
  }
  if (code.expired) throw invalidGrant('the authorization code has expired')
  if (input.redirectUri !== code.redirect_uri) {
    throw invalidGrant('redirect_uri does not match the one of the authorization request')
  }
  if (code.code_challenge) {
    if (!input.codeVerifier) throw invalidGrant('code_verifier is required: the authorization request used PKCE')
    if (!CODE_VERIFIER.test(input.codeVerifier) || !verifierMatches(input.codeVerifier, code.code_challenge)) {
      throw invalidGrant('code_verifier does not match the code_challenge')
    }
  } else if (input.codeVerifier !== undefined) {
    // A verifier without a challenge means an attacker may have stripped PKCE (downgrade).
    throw invalidGrant('code_verifier sent, but the authorization request had no code_challenge')
  }
  // RFC 8707 §2.2: the token request may repeat the resource or leave it out, never name another.
  if (resource !== undefined && resource !== code.resource) {
    throw new OAuthError('invalid_target', 'resource is not the one the authorization request was for')
  }

  const claimed = await sql.transaction(async (tx) => {
    const used = await tx.query(
      'UPDATE identity.authorization_codes SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL',
      [codeHash],
    )
    if (used.affectedRows === 0) return false
    await tx.query(
      `INSERT INTO identity.grants (id, client_id, user_id, scopes, auth_time, resource, amr)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [code.grant_id, client.id, code.user_id, code.scopes, code.auth_time, code.resource, code.amr],
    )
    return true
  })
  if (!claimed) {
    await revokeGrant(sql, code.grant_id)
    throw invalidGrant('the authorization code was already used; tokens issued from it are revoked')
  }
  return issueTokens(sql, signer, {
    grantId: code.grant_id,
    clientId: client.id,
    userId: code.user_id,
    scopes: code.scopes,
    refreshScopes: code.scopes,
    resource: code.resource ?? undefined,
    authTime: new Date(code.auth_time),
    amr: code.amr,
    nonce: code.nonce ?? undefined,
  })
}
