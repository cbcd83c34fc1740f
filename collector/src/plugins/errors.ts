import { type ErrorCode, errorStatus, GuardError, isStoreUnavailable, STORE_RETRY_AFTER_SECONDS } from '@guard/shared'
import type { FastifyError, FastifyInstance } from 'fastify'
import { ZodError } from 'zod'

/**
 * The collector's error body; 401 and 429 carry exactly the fields the spec gives them, and
 * PLAN_LIMIT adds which limit (`limit`), its value and the plan.
 */
export function errorBody(code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
  if (code === 'UNAUTHORIZED') return { error: code, message }
  if (code === 'RATE_LIMIT_EXCEEDED') return { error: code, message, ...extra }
  if (code === 'PLAN_LIMIT') return { success: false, error: code, message, ...extra }
  return { success: false, error: code, message }
}

const zodMessage = (error: ZodError) =>
  error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ')

/**
 * A request that failed its route schema, as `field.path: message` for each problem, so a body
 * field reads the same whether the route's schema or the service refused it.
 */
function validationMessage(error: FastifyError): string {
  const where = error.validationContext ?? 'request'
  const issues = error.validation ?? []
  const described = issues.map((issue) => {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.')
    return path ? `${path}: ${issue.message}` : `${where}: ${issue.message}`
  })
  return described.length > 0 ? described.join('; ') : `${where}: ${error.message}`
}

/** Maps fastify's own 4xx errors (bad JSON, wrong media type, body too large) onto the closed code set. */
function codeOfClientError(status: number): ErrorCode {
  if (status === 413) return 'PAYLOAD_TOO_LARGE'
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE'
  if (status === 405) return 'METHOD_NOT_ALLOWED'
  if (status === 404) return 'NOT_FOUND'
  return 'VALIDATION_ERROR'
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | GuardError | ZodError, request, reply) => {
    if (error instanceof GuardError) {
      return reply.status(error.status).send(errorBody(error.code, error.message, error.details))
    }
    if (error instanceof ZodError) {
      return reply.status(400).send(errorBody('VALIDATION_ERROR', zodMessage(error)))
    }
    if (error.validation) {
      return reply.status(400).send(errorBody('VALIDATION_ERROR', validationMessage(error)))
    }
    if (isStoreUnavailable(error)) {
      request.log.warn({ err: error }, 'a store is unavailable: answering 503')
      return reply
        .status(503)
        .header('retry-after', String(STORE_RETRY_AFTER_SECONDS))
        .send(
          errorBody(
            'SERVICE_UNAVAILABLE',
            `A database Guard depends on is unavailable; retry in ${STORE_RETRY_AFTER_SECONDS} seconds.`,
          ),
        )
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      return reply.status(status).send(errorBody(codeOfClientError(status), error.message))
    }
    request.log.error({ err: error }, 'unhandled error')
    return reply.status(500).send(errorBody('INTERNAL_ERROR', 'Internal server error'))
  })
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(errorStatus.NOT_FOUND)
      .send(errorBody('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`)),
  )
}
