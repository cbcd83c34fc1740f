import type { GuardFastify } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { problem, sendProblem } from '../plugins/problem.ts'
import { verifyAccessToken } from '../services/tokens/verify-access.ts'
import { userClaims } from '../services/users/claims.ts'
import type { OAuthContext } from './context.ts'
import { OAuthError } from './oauth-error.ts'
import { problemResponse, userInfoClaims } from './schemas.ts'

const bearer = (request: FastifyRequest) => request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]

/** RFC 6750 §3: the failure goes in WWW-Authenticate as well as the problem body. */
function refuse(reply: FastifyReply, error: OAuthError) {
  const description = error.description.replaceAll('"', "'")
  reply.header('WWW-Authenticate', `Bearer error="${error.error}", error_description="${description}"`)
  return sendProblem(reply, problem(error.code, error.status, error.description, error.hint))
}

export function userinfoRoutes(app: GuardFastify, ctx: OAuthContext): void {
  const answer = async (request: FastifyRequest, reply: FastifyReply, fromForm: string | undefined) => {
    const header = bearer(request)
    if (header && fromForm) {
      return refuse(reply, new OAuthError('invalid_request', 'send the access token once: header or form, not both'))
    }
    const token = header ?? fromForm
    try {
      if (!token) throw new OAuthError('invalid_token', 'an access token is required')
      const verified = await verifyAccessToken(ctx.sql, ctx, token)
      const claims = await userClaims(ctx.sql, verified.userId, verified.scopes)
      if (!claims) throw new OAuthError('invalid_token', 'the access token belongs to a deleted user')
      reply.header('Cache-Control', 'no-store')
      return claims
    } catch (error) {
      if (error instanceof OAuthError) return refuse(reply, error)
      throw error
    }
  }
  const response = {
    200: userInfoClaims,
    400: problemResponse('Invalid request: the access token sent both in the header and in the form'),
    401: problemResponse('Missing or invalid access token; WWW-Authenticate carries the RFC 6750 error'),
  }

  app.get(
    '/api/oauth/userinfo',
    { schema: { summary: 'Claims of the access token’s user, filtered by its scopes', tags: ['oauth'], response } },
    (request, reply) => answer(request, reply, undefined),
  )
  app.post(
    '/api/oauth/userinfo',
    {
      schema: {
        summary: 'Same as GET; the access token may also come as the form field access_token',
        tags: ['oauth'],
        consumes: ['application/x-www-form-urlencoded'],
        body: z.strictObject({ access_token: z.string().optional() }).nullish(),
        response,
      },
    },
    (request, reply) => answer(request, reply, request.body?.access_token),
  )
}
