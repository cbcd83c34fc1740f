import { createHash } from 'node:crypto'
import { MONITORING_API_AUDIENCE, newId } from '@guard/shared'
import { type JWTPayload, SignJWT } from 'jose'
import { acrOf } from '../factors/methods.ts'
import type { KeyRing } from '../keys/key-ring.ts'
import { ACCESS_TOKEN_SECONDS, ID_TOKEN_SECONDS } from './lifetimes.ts'

export interface Signer {
  issuer: string
  keys: KeyRing
}

/**
 * An RFC 9068 access token. Its audience is identity itself (userinfo) and the monitoring API,
 * so the collector accepts it without a token exchange; or, when the authorization named an
 * RFC 8707 resource, that resource alone, so the token is good nowhere else.
 */
export async function signAccessToken(
  signer: Signer,
  input: { userId: string; clientId: string; scope: string; audience: string | undefined; extra: JWTPayload },
): Promise<{ token: string; jti: string; expiresAt: Date }> {
  const { kid, key } = await signer.keys.signing()
  const jti = newId()
  const now = Math.floor(Date.now() / 1000)
  const token = await new SignJWT({ ...input.extra, client_id: input.clientId, scope: input.scope })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid })
    .setIssuer(signer.issuer)
    .setSubject(input.userId)
    .setAudience(input.audience ?? [signer.issuer, MONITORING_API_AUDIENCE])
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TOKEN_SECONDS)
    .setJti(jti)
    .sign(key)
  return { token, jti, expiresAt: new Date((now + ACCESS_TOKEN_SECONDS) * 1000) }
}

/** OIDC Core §3.1.3.6: the left half of the SHA-256 of the access token. */
const atHash = (accessToken: string) =>
  createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url')

export async function signIdToken(
  signer: Signer,
  input: {
    userId: string
    clientId: string
    authTime: Date
    amr: readonly string[]
    nonce: string | undefined
    accessToken: string
    claims: JWTPayload
  },
): Promise<string> {
  const { kid, key } = await signer.keys.signing()
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({
    ...input.claims,
    azp: input.clientId,
    auth_time: Math.floor(input.authTime.getTime() / 1000),
    amr: [...input.amr],
    acr: acrOf(input.amr),
    at_hash: atHash(input.accessToken),
    ...(input.nonce ? { nonce: input.nonce } : {}),
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid })
    .setIssuer(signer.issuer)
    .setSubject(input.userId)
    .setAudience(input.clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + ID_TOKEN_SECONDS)
    .sign(key)
}
