import { type Sql, timeClaimChecks } from '@guard/shared'
import { jwtVerify } from 'jose'
import { OAuthError } from '../../oauth/oauth-error.ts'
import { parseScope } from '../../oauth/scopes.ts'
import type { Signer } from './sign.ts'

export interface VerifiedAccessToken {
  userId: string
  clientId: string
  scopes: string[]
  jti: string
}

/** Signature, issuer, audience, expiry and a not-future `iat` (within the clock skew), then the stored state: revoked tokens and families stop here. */
export async function verifyAccessToken(sql: Sql, signer: Signer, token: string): Promise<VerifiedAccessToken> {
  let payload: Record<string, unknown>
  try {
    ;({ payload } = await jwtVerify(token, (header) => signer.keys.verificationKey(header), {
      issuer: signer.issuer,
      audience: signer.issuer,
      typ: 'at+jwt',
      algorithms: ['RS256'],
      ...timeClaimChecks,
    }))
  } catch {
    throw new OAuthError('invalid_token', 'the access token is invalid or expired')
  }
  const { sub, jti, scope, client_id: clientId } = payload
  if (typeof sub !== 'string' || typeof jti !== 'string' || typeof scope !== 'string' || typeof clientId !== 'string') {
    throw new OAuthError('invalid_token', 'the access token lacks required claims')
  }
  const { rows } = await sql.query<{ token_revoked: Date | null; grant_revoked: Date | null }>(
    `SELECT a.revoked_at AS token_revoked, g.revoked_at AS grant_revoked
       FROM identity.access_tokens a JOIN identity.grants g ON g.id = a.grant_id WHERE a.jti = $1`,
    [jti],
  )
  const row = rows[0]
  if (!row || row.token_revoked || row.grant_revoked)
    throw new OAuthError('invalid_token', 'the access token has been revoked')
  return { userId: sub, clientId, scopes: parseScope(scope), jti }
}
