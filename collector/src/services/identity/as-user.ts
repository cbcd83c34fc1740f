import { type ErrorCode, GuardError, isErrorCode } from '@guard/shared'
import type { z } from 'zod'
import type { CollectorContext } from '../../context.ts'
import { identityCallUrl } from '../../env.ts'

const REQUEST_TIMEOUT_MS = 10_000

/** The signed-in user a call to identity is made for: their own access token, never the collector's authority. */
export interface IdentityUser {
  /** The user's access token (the console session's), whose audience includes identity. */
  accessToken: string
  /** The browser's address and user agent, for identity's audit log and its sign-in throttle. */
  ip: string
  userAgent: string | undefined
}

/** The status codes identity answers that the collector has a code of its own for; anything else is a bad gateway. */
const PASSED_ON: ReadonlySet<ErrorCode> = new Set([
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMIT_EXCEEDED',
  'SERVICE_UNAVAILABLE',
])

/**
 * One call to identity's user-facing API (`/api/v1/organizations/…`, `/api/v1/account/…`) with the
 * user's own access token: identity decides what the user may do, as it would for any of Guard's
 * own applications. Its refusals keep their code and words; an identity that does not answer, or
 * answers something else than `schema`, is 503 / 502.
 */
export async function callIdentityAsUser<T extends z.ZodType>(
  ctx: Pick<CollectorContext, 'env'>,
  user: IdentityUser,
  request: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown; schema: T },
): Promise<z.infer<T>> {
  const base = identityCallUrl(ctx.env)
  if (!base) {
    throw new GuardError('SERVICE_UNAVAILABLE', 'This collector has no identity (GUARD_IDENTITY_URL is not set)')
  }
  let response: Response
  try {
    response = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: {
        authorization: `Bearer ${user.accessToken}`,
        accept: 'application/json',
        // Identity counts it only when the collector is among its GUARD_TRUSTED_PROXIES.
        'x-forwarded-for': user.ip,
        ...(user.userAgent ? { 'user-agent': user.userAgent } : {}),
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
  } catch {
    throw new GuardError('SERVICE_UNAVAILABLE', 'Identity cannot be reached; try again shortly')
  }
  const body: unknown = await response.json().catch(() => undefined)
  if (!response.ok) throw refusal(response, body)
  const parsed = request.schema.safeParse(body)
  if (!parsed.success) throw new GuardError('BAD_GATEWAY', 'Identity answered something unexpected')
  return parsed.data
}

/** Identity's problem+json as the collector's error, with its code and words (and when to retry). */
function refusal(response: Response, body: unknown): GuardError {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; detail?: unknown }
  const code = isErrorCode(problem.code) && PASSED_ON.has(problem.code) ? problem.code : undefined
  const detail = typeof problem.detail === 'string' ? problem.detail : `identity answered ${response.status}`
  if (!code) return new GuardError('BAD_GATEWAY', `Identity could not do this (${detail})`)
  if (code === 'RATE_LIMIT_EXCEEDED') {
    return new GuardError(code, detail, { retry_after: Number(response.headers.get('retry-after') ?? 60) })
  }
  return new GuardError(code, detail)
}
