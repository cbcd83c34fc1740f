import { GuardError } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import { decodeJwt } from 'jose'
import type { Caller, CollectorContext } from '../context.ts'
import { looksLikeApiKey } from '../services/api-keys/secret.ts'
import { createCachedApiKeyVerifier } from '../services/api-keys/verify-cached.ts'
import { createUserTokenAuthenticator } from '../services/auth/authenticate-user.ts'

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | undefined
    /**
     * Whether the credential the request came with is still good (key not revoked, token not
     * expired, console session not signed out): long-lived responses such as the event stream ask
     * it as they go.
     */
    stillAuthorized: (() => Promise<boolean>) | undefined
  }
}

/** The caller of an authenticated route; routes under the auth hook always have one. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new GuardError('UNAUTHORIZED', 'Invalid or missing authentication token')
  return request.caller
}

/**
 * A preHandler resolving `Authorization: Bearer <API key or user access token>` to the caller.
 * API keys carry their prefix; anything else is verified as identity's JWT when identity is
 * configured. A user may name one of their organizations with `X-Organization-Id`.
 */
export function authenticate(ctx: CollectorContext) {
  const { GUARD_IDENTITY_URL: issuer, GUARD_IDENTITY_JWKS_URL: jwksUrl } = ctx.env
  const authenticateUser = issuer ? createUserTokenAuthenticator({ issuer, jwksUrl }) : undefined
  const verifyKey = createCachedApiKeyVerifier(ctx)
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization
    const match = header?.match(/^Bearer\s+(\S+)\s*$/i)
    if (!match) throw new GuardError('UNAUTHORIZED', 'Invalid or missing authentication token')
    const token = match[1]!
    if (looksLikeApiKey(token) || !authenticateUser) {
      request.caller = await verifyKey(token)
      request.stillAuthorized ??= () => verifyKey(token).then(() => true, refusedOrUnknown)
      return
    }
    const organization = request.headers['x-organization-id']
    request.caller = await authenticateUser(token, typeof organization === 'string' ? organization : undefined)
    const expiresAt = (decodeJwt(token).exp ?? Number.POSITIVE_INFINITY) * 1000
    request.stillAuthorized ??= async () => Date.now() < expiresAt
  }
}

/** A refused credential is no longer good; a store that cannot answer right now does not end anything. */
function refusedOrUnknown(error: unknown): boolean {
  if (error instanceof GuardError && error.code === 'UNAUTHORIZED') return false
  return true
}
