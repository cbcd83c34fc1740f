import { createHash } from 'node:crypto'
import { GuardError } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { identityCallUrl } from '../env.ts'
import type { PlatformOperator } from '../services/dead-letters/schemas.ts'

declare module 'fastify' {
  interface FastifyRequest {
    operator: PlatformOperator | undefined
  }
}

const whoami = z.object({
  type: z.enum(['admin_token', 'user', 'local', 'system']),
  id: z.string().nullable(),
  label: z.string(),
})

/** How long a credential identity vouched for is trusted without asking again. */
const TRUST_MS = 30_000
const REQUEST_TIMEOUT_MS = 5000

/** The operator of an admin route; routes under the hook always have one. */
export function operatorOf(request: FastifyRequest): PlatformOperator {
  if (!request.operator) throw new GuardError('UNAUTHORIZED', 'Invalid or missing authentication token')
  return request.operator
}

/**
 * Lets the platform's operator into the collector's admin routes with the credential identity's
 * admin API takes (the admin token in credentials.json, or an admin's access token with the admin
 * scope): identity owns who is an operator, so the collector asks it (`GET /api/v1/admin/whoami`)
 * rather than keep a second list, and trusts an answer for 30 s. Organization API keys and
 * members' tokens are refused there, whatever their role.
 */
export function authenticateOperator(ctx: CollectorContext) {
  const trusted = new Map<string, { operator: PlatformOperator; until: number }>()
  return async (request: FastifyRequest) => {
    const token = request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
    if (!token) throw new GuardError('UNAUTHORIZED', 'Invalid or missing authentication token')
    const identityUrl = identityCallUrl(ctx.env)
    if (!identityUrl) {
      // No identity, no operator: a configuration this collector runs without, not an outage.
      throw new GuardError('FORBIDDEN', 'The admin API needs identity (GUARD_IDENTITY_URL) to know the operator')
    }
    const key = createHash('sha256').update(token).digest('base64url')
    const known = trusted.get(key)
    if (known && known.until > Date.now()) {
      request.operator = known.operator
      return
    }
    let response: Response
    try {
      response = await fetch(new URL('/api/v1/admin/whoami', identityUrl), {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
    } catch (error) {
      throw new GuardError(
        'SERVICE_UNAVAILABLE',
        `Identity could not be asked who the caller is (${(error as Error).message})`,
      )
    }
    if (response.status === 401) {
      throw new GuardError('UNAUTHORIZED', 'Invalid or missing authentication token')
    }
    if (response.status === 403) {
      throw new GuardError(
        'FORBIDDEN',
        'Only the platform operator may use the admin API (identity admin token or an admin with the admin scope)',
      )
    }
    const parsed = response.ok ? whoami.safeParse(await response.json().catch(() => undefined)) : undefined
    if (!parsed?.success)
      throw new GuardError('SERVICE_UNAVAILABLE', `Identity answered ${response.status} to who the caller is`)
    const operator: PlatformOperator = {
      kind: parsed.data.type === 'user' || parsed.data.type === 'admin_token' ? parsed.data.type : 'operator',
      id: parsed.data.id ?? parsed.data.label,
      label: parsed.data.label,
    }
    trusted.set(key, { operator, until: Date.now() + TRUST_MS })
    request.operator = operator
  }
}
