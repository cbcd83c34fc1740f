import { type AccessTokenVerifier, createAccessTokenVerifier } from '@guard/shared'
import type { Caller } from '../../context.ts'
import { callerFromToken } from './caller-from-token.ts'

export type UserTokenAuthenticator = (token: string, requestedOrganization: string | undefined) => Promise<Caller>

/** Verifies a user's access token against identity's JWKS, then scopes it to one organization. */
export function createUserTokenAuthenticator(options: {
  issuer: string
  jwksUrl: string | undefined
}): UserTokenAuthenticator {
  const verify: AccessTokenVerifier = createAccessTokenVerifier({
    issuer: options.issuer,
    ...(options.jwksUrl ? { jwksUrl: options.jwksUrl } : {}),
  })
  return async (token, requestedOrganization) => callerFromToken(await verify(token), requestedOrganization)
}
