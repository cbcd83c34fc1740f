import { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS } from '@guard/shared'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { problem } from '../plugins/problem.ts'
import { OAuthError } from './oauth-error.ts'

/**
 * The token and revoke endpoints answer errors as application/json: certified clients read
 * RFC 6749's `error` and `error_description` and refuse other media types there, so the
 * problem fields travel in the same object.
 */
export function sendOAuthJsonError(reply: FastifyReply, error: OAuthError): FastifyReply {
  if (error.error === 'invalid_client') reply.header('WWW-Authenticate', 'Basic realm="guard", charset="UTF-8"')
  return reply
    .status(error.status)
    .type('application/json')
    .header('Cache-Control', 'no-store')
    .send({
      ...problem(error.code, error.status, error.description, error.hint),
      error: error.error,
      error_description: error.description,
    })
}

/** Route-level error handler: schema and parser failures become invalid_request, the rest server_error. */
export function oauthJsonErrorHandler(error: FastifyError | OAuthError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof OAuthError) return sendOAuthJsonError(reply, error)
  if (error.validation || (error.statusCode !== undefined && error.statusCode < 500)) {
    return sendOAuthJsonError(reply, new OAuthError('invalid_request', error.message))
  }
  if (isStoreUnavailable(error)) {
    request.log.warn({ err: error }, 'the database is unavailable: answering 503')
    reply.header('Retry-After', String(STORE_RETRY_AFTER_SECONDS))
    return sendOAuthJsonError(
      reply,
      new OAuthError('temporarily_unavailable', 'the database is unavailable; retry in a few seconds'),
    )
  }
  request.log.error({ err: error }, 'token endpoint failed')
  return sendOAuthJsonError(reply, new OAuthError('server_error', 'the server could not complete the request'))
}
