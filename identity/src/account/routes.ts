import { GuardError, type GuardFastify } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { OAuthContext } from '../oauth/context.ts'
import { OAuthError } from '../oauth/oauth-error.ts'
import { problemResponses } from '../routes/schemas.ts'
import { recordAudit } from '../services/audit/record.ts'
import { listSessions, revokeSession, sessionView } from '../services/sessions/list.ts'
import { accountKey, failAttempt, ipKey, releaseAttempt, reserveAttempt } from '../services/sign-in/throttle.ts'
import { verifyAccessToken } from '../services/tokens/verify-access.ts'
import { changePassword, passwordChange } from '../services/users/change-password.ts'

const TAGS = ['account']
const security = [{ bearer: [] }]
const errors = problemResponses(400, 401, 403, 404, 429)

/** The caller's user and the token family of the access token presented. */
async function accountOf(ctx: OAuthContext, request: FastifyRequest) {
  const token = request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
  if (!token) throw new GuardError('UNAUTHORIZED', 'an access token is required (Authorization: Bearer)')
  try {
    const verified = await verifyAccessToken(ctx.sql, ctx, token)
    const { rows } = await ctx.sql.query<{ grant_id: string }>(
      'SELECT grant_id FROM identity.access_tokens WHERE jti = $1',
      [verified.jti],
    )
    return { userId: verified.userId, grantId: rows[0]?.grant_id }
  } catch (error) {
    if (error instanceof OAuthError) throw new GuardError('UNAUTHORIZED', error.description, { hint: error.hint })
    throw error
  }
}

/** What a signed-in user manages about their own account: browser sessions and password. */
export async function accountRoutes(app: GuardFastify, ctx: OAuthContext): Promise<void> {
  await app.register(async (instance) => {
    const account = instance.withTypeProvider<ZodTypeProvider>()
    account.get(
      '/api/v1/account/sessions',
      {
        schema: {
          summary: 'List my browser sessions',
          tags: TAGS,
          security,
          response: { 200: z.object({ sessions: z.array(sessionView) }), ...errors },
        },
      },
      async (request) => ({ sessions: await listSessions(ctx.sql, (await accountOf(ctx, request)).userId) }),
    )
    account.delete(
      '/api/v1/account/sessions/:id',
      {
        schema: {
          summary: 'End one of my browser sessions',
          tags: TAGS,
          security,
          params: z.object({ id: z.string().min(1).max(100) }),
          response: { 200: z.object({ id: z.string(), revoked: z.literal(true) }), ...errors },
        },
      },
      async (request) => {
        const { userId } = await accountOf(ctx, request)
        await revokeSession(ctx.sql, { userId, sessionId: request.params.id })
        return { id: request.params.id, revoked: true as const }
      },
    )
    account.post(
      '/api/v1/account/password',
      {
        schema: {
          summary: 'Change my password',
          description:
            'Needs the current password. Ends every browser session and every token family except the one of the access token used here.',
          tags: TAGS,
          security,
          body: passwordChange,
          response: { 200: z.object({ changed: z.literal(true) }), ...errors },
        },
      },
      async (request, reply) => {
        const { userId, grantId } = await accountOf(ctx, request)
        // The current password is guessed no faster here than on the sign-in page.
        const { rows } = await ctx.sql.query<{ email: string }>('SELECT email FROM identity.users WHERE id = $1', [
          userId,
        ])
        // Reserved before the check, so parallel guesses get no more checks than sequential ones.
        const reservation = await reserveAttempt(ctx.sql, ctx.throttle, [
          { key: accountKey(rows[0]?.email ?? userId), rule: ctx.throttle.account },
          { key: ipKey(request.ip), rule: ctx.throttle.ip },
        ])
        if (!reservation.reserved) {
          reply.header('Retry-After', reservation.retryAfter)
          throw new GuardError('RATE_LIMIT_EXCEEDED', 'too many wrong passwords; try again later')
        }
        try {
          await ctx.sql.transaction(async (tx) => {
            await changePassword(tx, { userId, keepGrantId: grantId, change: request.body })
            await recordAudit(
              tx,
              {
                type: 'user',
                id: userId,
                label: rows[0]?.email ?? userId,
                ip: request.ip,
                userAgent: request.headers['user-agent'],
              },
              { action: 'user.change-password', targetType: 'user', targetId: userId },
            )
          })
        } catch (error) {
          // Settled outside the transaction, which rolled back: the failure must stay counted.
          if (error instanceof GuardError && error.code === 'FORBIDDEN') {
            await failAttempt(ctx.sql, ctx.throttle, reservation.attempt)
          } else {
            await releaseAttempt(ctx.sql, reservation.attempt)
          }
          throw error
        }
        await releaseAttempt(ctx.sql, reservation.attempt)
        return { changed: true as const }
      },
    )
  })
}
