import { newId, type Sql } from '@guard/shared'
import { hashToken, randomToken } from '../tokens/secret.ts'

/** RFC 6749 §4.1.2 recommends at most 10 minutes; a browser redirect needs seconds. */
export const CODE_SECONDS = 5 * 60

export interface CodeRequest {
  clientId: string
  userId: string
  redirectUri: string
  scopes: string[]
  resource: string | undefined
  codeChallenge: string | undefined
  nonce: string | undefined
  authTime: Date
  /** What the session's sign-in proved: the ID token's amr and acr. */
  amr: readonly string[]
}

/**
 * 256 random bits, stored hashed and bound to everything the token request must repeat. The
 * grant id is fixed now so a replayed code can find and revoke what its first use issued.
 */
export async function createAuthorizationCode(sql: Sql, request: CodeRequest): Promise<string> {
  const code = randomToken()
  await sql.query(
    `INSERT INTO identity.authorization_codes
       (code_hash, grant_id, client_id, user_id, redirect_uri, scopes, code_challenge, nonce, auth_time, expires_at,
        resource, amr)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(secs => $10), $11, $12)`,
    [
      hashToken(code),
      newId(),
      request.clientId,
      request.userId,
      request.redirectUri,
      request.scopes,
      request.codeChallenge ?? null,
      request.nonce ?? null,
      request.authTime,
      CODE_SECONDS,
      request.resource ?? null,
      [...request.amr],
    ],
  )
  return code
}
