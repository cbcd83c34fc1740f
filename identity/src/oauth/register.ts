import { GuardError, type GuardFastify } from '@guard/shared'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { fixedWindowLimiter } from '../plugins/rate-limit.ts'
import { registerDynamicClient, registrationRequest, registrationResponse } from '../services/clients/register.ts'
import type { OAuthContext } from './context.ts'
import { oauthJsonErrorHandler, sendOAuthJsonError } from './json-errors.ts'
import { OAuthError } from './oauth-error.ts'
import { oauthErrorBody, problemResponse } from './schemas.ts'

export const REGISTRATION_PATH = '/api/oauth/register'

const metadataError = (where: string, description: string) =>
  new OAuthError(where.includes('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata', description)

/**
 * A body that fails the schema, or carries control characters, is bad client metadata (RFC 7591
 * §3.2.2), not a bad request.
 */
function registrationErrorHandler(
  error: FastifyError | OAuthError | GuardError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof GuardError && error.code === 'VALIDATION_ERROR') {
    return sendOAuthJsonError(reply, metadataError(error.message, error.message))
  }
  if (!(error instanceof OAuthError) && !(error instanceof GuardError) && error.validation) {
    const first = error.validation[0]
    const path = String(first?.instancePath ?? '')
    return sendOAuthJsonError(reply, metadataError(path, `${path || 'body'}: ${first?.message ?? error.message}`))
  }
  return oauthJsonErrorHandler(error as FastifyError, request, reply)
}

/** RFC 7591 dynamic client registration, for the public clients of MCP assistants. */
export function registrationRoute(app: GuardFastify, ctx: OAuthContext): void {
  const limiter = fixedWindowLimiter({ name: 'registration', limit: ctx.registrationLimit, windowSeconds: 3600 })
  app.post(
    REGISTRATION_PATH,
    {
      schema: {
        summary: 'Dynamic client registration (RFC 7591) for public clients',
        description:
          'Registers a public client (token_endpoint_auth_method none, PKCE S256 required). Redirect URIs: https, ' +
          'http on 127.0.0.1, [::1] or localhost (any port at use), or a reverse-domain private-use scheme ' +
          '(com.example.app:/callback); no fragment. Other schemes are refused with invalid_redirect_uri. ' +
          'Rate limited per client IP (GUARD_REGISTRATION_LIMIT per hour); a registration that gets no token within ' +
          '24 hours, or none for 30 days, is deleted.',
        tags: ['oauth'],
        body: registrationRequest,
        response: {
          201: registrationResponse,
          400: oauthErrorBody,
          429: problemResponse('Too many registrations from this client IP; see Retry-After'),
          500: oauthErrorBody,
          503: oauthErrorBody,
        },
      },
      onRequest: async (request, reply) => limiter.count(request, reply),
      errorHandler: registrationErrorHandler,
    },
    async (request, reply) => {
      const registered = await registerDynamicClient({ sql: ctx.sql, input: request.body })
      ctx.log.info({ clientId: registered.client_id, name: registered.client_name }, 'client registered dynamically')
      return reply.status(201).header('Cache-Control', 'no-store').send(registered)
    },
  )
}
