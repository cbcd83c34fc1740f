import { type ErrorCode, GuardError, isStoreUnavailable, STORE_RETRY_AFTER_SECONDS } from '@guard/shared'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ZodError } from 'zod'
import { prefersHtml } from '../pages/landing.ts'

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

/** The spec says every 400 carries a hint; this one applies where nothing more specific is known. */
const DEFAULT_400_HINT = 'Check the request against GET /openapi.json'

export function problem(code: ErrorCode, status: number, detail: string, hint?: string): Problem {
  hint ??= status === 400 ? DEFAULT_400_HINT : undefined
  return {
    type: `https://guard.dev/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...(hint ? { hint } : {}),
  }
}

/**
 * Serialized here, not by the route's response schema: a route may document another body for the
 * same status (an HTML page), and a serializer mismatch would turn any error into fastify's own 500.
 */
export function sendProblem(reply: FastifyReply, body: Problem): FastifyReply {
  return reply.status(body.status).type('application/problem+json').serializer(JSON.stringify).send(body)
}

const zodDetail = (error: ZodError) =>
  error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ')

/**
 * Every error leaves identity as problem+json; a 500 never carries internals. `browserNotFound`
 * answers a browser's GET of an unknown path instead, so a person is not left with JSON.
 */
export function registerProblemErrors(
  app: FastifyInstance,
  options: { browserNotFound?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply } = {},
): void {
  const methodsByPath = collectMethods(app)
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
    if (isStoreUnavailable(error)) {
      request.log.warn({ err: error }, 'the database is unavailable: answering 503')
      reply.header('Retry-After', String(STORE_RETRY_AFTER_SECONDS))
      return sendProblem(
        reply,
        problem(
          'SERVICE_UNAVAILABLE',
          503,
          'The database is unavailable; the request was not carried out',
          `Retry after ${STORE_RETRY_AFTER_SECONDS} seconds; GET /api/v1/health shows the state of each dependency`,
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
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const allowed = methodsByPath.get(path) ?? methodsOfPattern(methodsByPath, path)
    if (allowed) {
      const allow = [...allowed].sort().join(', ')
      reply.header('Allow', allow)
      return sendProblem(
        reply,
        problem('METHOD_NOT_ALLOWED', 405, `${request.method} is not allowed on ${path}`, `Allowed methods: ${allow}`),
      )
    }
    if (options.browserNotFound) {
      reply.header('Vary', 'Accept')
      if ((request.method === 'GET' || request.method === 'HEAD') && prefersHtml(request.headers.accept))
        return options.browserNotFound(request, reply)
    }
    return sendProblem(
      reply,
      problem('NOT_FOUND', 404, `No resource at ${path}`, 'GET /api/v1 lists the available endpoints'),
    )
  })
}

/** A parametric route (`/api/v1/admin/users/:id`) whose pattern matches the path. */
function methodsOfPattern(methodsByPath: Map<string, Set<string>>, path: string): Set<string> | undefined {
  for (const [pattern, methods] of methodsByPath) {
    if (!pattern.includes(':')) continue
    const parts = pattern
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    if (new RegExp(`^${parts.join('/')}$`).test(path)) return methods
  }
  return undefined
}

/**
 * fastify answers a known path with an unrouted method as not found; remembering each path's
 * methods lets that case be a 405 with Allow. Most paths have no parameters, so the path itself
 * is the key; parametric ones (the admin API's) are matched by pattern.
 */
function collectMethods(app: FastifyInstance): Map<string, Set<string>> {
  const methodsByPath = new Map<string, Set<string>>()
  app.addHook('onRoute', (route) => {
    const methods = methodsByPath.get(route.url) ?? new Set<string>()
    for (const method of [route.method].flat()) methods.add(method)
    methodsByPath.set(route.url, methods)
  })
  return methodsByPath
}
