/**
 * The closed set of error codes every Guard process speaks. Services throw GuardError with one of
 * these; each edge (HTTP, MCP, bus replies) maps the code to its own wire form.
 */
export const errorStatus = {
  VALIDATION_ERROR: 400,
  /** An external platform refused the credentials Guard presented (integrations). */
  PROVIDER_CREDENTIALS_REJECTED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /** A write the organization's plan does not allow (too many monitors, too short an interval, …). */
  PLAN_LIMIT: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TARGET_NOT_ALLOWED: 422,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  /** An external platform was unreachable, timed out or answered something unusable (integrations). */
  BAD_GATEWAY: 502,
  PROBE_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  TIMEOUT: 504,
} as const

export type ErrorCode = keyof typeof errorStatus

export const errorCodes = Object.keys(errorStatus) as ErrorCode[]

export class GuardError extends Error {
  override name = 'GuardError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message)
  }

  get status(): number {
    return errorStatus[this.code]
  }

  /** The name fastify's error handlers read: a GuardError reaching a generic handler keeps its status. */
  get statusCode(): number {
    return this.status
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in errorStatus
}

export const notFound = (what: string) => new GuardError('NOT_FOUND', `${what} not found`)
