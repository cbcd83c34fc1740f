import { createRemoteJWKSet, errors, type JWTVerifyGetKey, jwtVerify } from 'jose'
import { ZodError, z } from 'zod'
import { GuardError } from '../errors.ts'

/**
 * The `aud` value identity puts in every access token so the monitoring API (collector) accepts
 * it. A URN rather than the collector's URL: the same token works whatever address a collector
 * replica is reached at.
 */
export const MONITORING_API_AUDIENCE = 'urn:guard:monitoring-api'

/** The path of identity's key set, relative to its issuer URL. */
export const JWKS_PATH = '/.well-known/jwks.json'

export const organizationClaim = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  slug: z.string().optional(),
  role: z.string().optional(),
  membershipId: z.string().optional(),
})

export type OrganizationClaim = z.infer<typeof organizationClaim>

/** The RFC 9068 claims Guard's access tokens carry, plus `organizations` when that scope was granted. */
export const accessTokenClaims = z.object({
  iss: z.string(),
  sub: z.string(),
  aud: z.union([z.string(), z.array(z.string())]),
  client_id: z.string(),
  scope: z.string(),
  jti: z.string(),
  iat: z.number(),
  exp: z.number(),
  organizations: z.array(organizationClaim).optional(),
})

export type AccessTokenClaims = z.infer<typeof accessTokenClaims>

export interface AccessTokenVerifierOptions {
  issuer: string
  /** Defaults to `<issuer>/.well-known/jwks.json`. */
  jwksUrl?: string
  /** Default MONITORING_API_AUDIENCE; a function decides from the token's audiences (e.g. after normalising URLs). */
  audience?: string | ((audiences: string[]) => boolean)
  /** Least time between two key set fetches; a token with an unknown `kid` refetches after it. */
  cooldownMs?: number
}

/**
 * Clock difference between identity and a verifier that a token's `iat` (and `exp`, `nbf`) may
 * show: a token issued further in the future than this is refused, so a signing clock set
 * ahead cannot mint tokens that outlive their lifetime here.
 */
export const CLOCK_SKEW_SECONDS = 60

/** Oldest `iat` accepted, whatever `exp` says: longer than any access token Guard issues. */
export const MAX_TOKEN_AGE_SECONDS = 24 * 3600

/** The jose options every Guard verifier shares for time claims. */
export const timeClaimChecks = { clockTolerance: CLOCK_SKEW_SECONDS, maxTokenAge: MAX_TOKEN_AGE_SECONDS }

/** Resolves the claims, or throws GuardError UNAUTHORIZED (bad token) or SERVICE_UNAVAILABLE (no key set). */
export type AccessTokenVerifier = (token: string) => Promise<AccessTokenClaims>

/**
 * Verifies identity's RS256 access tokens against its published key set: signature, `typ`
 * at+jwt, issuer, audience, expiry and an `iat` no later than now plus CLOCK_SKEW_SECONDS. jose refetches the key set when a token names a `kid` it
 * has not seen, so a key rotation at identity needs no restart here.
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const issuer = options.issuer.replace(/\/+$/, '')
  const keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(options.jwksUrl ?? `${issuer}${JWKS_PATH}`), {
    cooldownDuration: options.cooldownMs ?? 30_000,
  })
  return async (token) => {
    try {
      const audience = options.audience ?? MONITORING_API_AUDIENCE
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        ...(typeof audience === 'string' ? { audience } : {}),
        typ: 'at+jwt',
        algorithms: ['RS256'],
        ...timeClaimChecks,
      })
      const claims = accessTokenClaims.parse(payload)
      if (typeof audience === 'function' && !audience(typeof claims.aud === 'string' ? [claims.aud] : claims.aud)) {
        throw new GuardError('UNAUTHORIZED', 'Invalid or missing authentication token')
      }
      return claims
    } catch (error) {
      if (error instanceof GuardError) throw error
      // A bad token is the caller's problem; an unreachable identity is ours and must not read as 401.
      const tokenFault =
        (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout)) || error instanceof ZodError
      if (tokenFault) throw new GuardError('UNAUTHORIZED', 'Invalid or missing authentication token')
      throw new GuardError('SERVICE_UNAVAILABLE', 'The identity key set could not be fetched to verify the token')
    }
  }
}
