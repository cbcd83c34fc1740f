import { GuardError } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import type { Caller, CollectorContext } from '../context.ts'
import { verifyApiKey } from '../services/api-keys/verify.ts'

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

/** A preHandler resolving `Authorization: Bearer <API key>` to the calling organization. */
export function authenticate(ctx: CollectorContext) {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization
    const match = header?.match(/^Bearer\s+(\S+)\s*$/i)
    if (!match) throw new GuardError('UNAUTHORIZED', 'Invalid or missing authentication token')
    request.caller = await verifyApiKey(ctx.sql, match[1]!)
  }
}
