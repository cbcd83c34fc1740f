import { GuardError } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import type { Caller, CollectorContext } from '../context.ts'
import { looksLikeApiKey } from '../services/api-keys/secret.ts'
import { createCachedApiKeyVerifier } from '../services/api-keys/verify-cached.ts'
import { createUserTokenAuthenticator } from '../services/auth/authenticate-user.ts'

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | undefined
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
      return
    }
    const organization = request.headers['x-organization-id']
    request.caller = await authenticateUser(token, typeof organization === 'string' ? organization : undefined)
  }
}
