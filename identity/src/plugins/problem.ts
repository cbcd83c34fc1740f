import { type ErrorCode, GuardError } from '@guard/shared'
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import { ZodError } from 'zod'

/** RFC 9457 problem details, with the spec's `code` and an optional `hint`; no other members. */
export interface Problem {
  type: string
  title: string
  status: number
  detail: string
  code: ErrorCode
  instance?: string
  hint?: string
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

export function problem(code: ErrorCode, status: number, detail: string, hint?: string): Problem {
  return {
    type: `https://guard.dev/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...(hint ? { hint } : {}),
  }
}

export function sendProblem(reply: FastifyReply, body: Problem): FastifyReply {
  return reply.status(body.status).type('application/problem+json').send(body)
}

const zodDetail = (error: ZodError) =>
  error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ')

/** Every error leaves identity as problem+json; a 500 never carries internals. */
export function registerProblemErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | GuardError | ZodError, request, reply) => {
    if (error instanceof GuardError) {
      const hint = typeof error.details?.hint === 'string' ? error.details.hint : undefined
      return sendProblem(reply, problem(error.code, error.status, error.message, hint))
    }
    if (error instanceof ZodError) {
      return sendProblem(
        reply,
        problem('VALIDATION_ERROR', 400, zodDetail(error), 'Check the request against GET /openapi.json'),
      )
    }
    if (error.validation) {
      return sendProblem(
        reply,
        problem(
          'VALIDATION_ERROR',
          400,
          `${error.validationContext ?? 'request'}: ${error.message}`,
          'Check the request against GET /openapi.json',
        ),
      )
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      const code: ErrorCode =
        status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR'
      return sendProblem(reply, problem(code, status, error.message))
    }
    request.log.error({ err: error }, 'unhandled error')
    return sendProblem(
      reply,
      problem(
        'INTERNAL_ERROR',
        500,
        'The server could not complete the request',
        'Retry once, then check GET /api/v1/health',
      ),
    )
  })
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      problem(
        'NOT_FOUND',
        404,
        `No resource at ${request.url.split('?')[0]}`,
        'GET /api/v1 lists the available endpoints',
      ),
    ),
  )
}
