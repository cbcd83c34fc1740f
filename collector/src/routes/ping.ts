import { GuardError, type GuardFastify, type PingType } from '@guard/shared'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { acceptPing, unknownPing } from '../services/heartbeats/accept-ping.ts'
import { createTokenLookup } from '../services/heartbeats/token-lookup.ts'
import { envelope, errorSchema, ok, rateLimitedSchema } from './common.ts'
import { minuteLimiter } from './minute-limiter.ts'

/** Bodies past the 100 kB kept are still read (then cut), so a job that posts a long log still pings. */
const READ_BODY_BYTES = 1024 * 1024

const token = z.string().min(1).max(200)
const query = z.object({ rid: z.string().max(100).optional() })
const responses = {
  200: envelope(z.object({ received: z.literal(true) })),
  404: errorSchema,
  429: rateLimitedSchema,
  503: errorSchema,
}

/**
 * The one answer a stored ping gets, serialized once: sent as a string, it skips the per-request
 * schema check and serialization, which on this route cost more than the rest of the answer.
 */
const RECEIVED = JSON.stringify(ok({ received: true as const }))

/** `start`, `fail` or an exit code 0–255; anything else is an unknown URL. */
function actionOf(action: string | undefined): { type: PingType; exitCode?: number } {
  if (action === undefined) return { type: 'success' }
  if (action === 'start' || action === 'fail') return { type: action }
  if (/^\d{1,3}$/.test(action) && Number(action) <= 255) {
    const exitCode = Number(action)
    return exitCode === 0 ? { type: 'success', exitCode } : { type: 'exit', exitCode }
  }
  throw unknownPing()
}

/**
 * The ping endpoints of heartbeat monitors: no API key, the token in the path, GET, POST or HEAD.
 * Each answers 200 only once the ping is on the bus; an unknown or regenerated token is a plain 404.
 */
export async function pingRoutes(app: GuardFastify, ctx: CollectorContext): Promise<void> {
  // Counted by the raw token, before any lookup: unknown tokens cost no database read either.
  const limit = minuteLimiter(ctx.env.GUARD_PING_MAX_PER_MINUTE)
  const lookup = createTokenLookup(ctx)
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: READ_BODY_BYTES }, (_request, body, done) =>
      done(null, body),
    )
    const handle = async (
      request: FastifyRequest<{ Params: { token: string; action?: string }; Querystring: z.infer<typeof query> }>,
      reply: FastifyReply,
    ) => {
      const decision = limit(request.params.token)
      reply.header('X-RateLimit-Limit', decision.limit)
      reply.header('X-RateLimit-Remaining', decision.remaining)
      reply.header('X-RateLimit-Reset', decision.reset)
      if (!decision.allowed) {
        reply.header('Retry-After', decision.retryAfter)
        throw new GuardError('RATE_LIMIT_EXCEEDED', `More than ${decision.limit} pings this minute for one heartbeat`, {
          retry_after: decision.retryAfter,
        })
      }
      const action = actionOf(request.params.action)
      await acceptPing(ctx, lookup, {
        token: request.params.token,
        ...action,
        rid: request.query.rid,
        method: request.method,
        sourceIp: request.ip,
        userAgent: request.headers['user-agent'],
        body: Buffer.isBuffer(request.body) ? request.body : undefined,
      })
      return reply.type('application/json; charset=utf-8').send(RECEIVED)
    }
    const description =
      'A heartbeat monitor’s ping (no API key: the token is the path). Success; `/start` when a run begins; `/fail` on failure; `/{exitCode}` with the exit status (0 is success). `rid` pairs the start and end of overlapping runs. A body (any type) is kept up to 100 kB in the run log. 200 once the ping is stored on the bus; 404 for an unknown or regenerated token; 429 past GUARD_PING_MAX_PER_MINUTE pings per heartbeat and minute.'
    for (const url of ['/ping/:token', '/ping/:token/:action']) {
      scope.route({
        method: ['GET', 'POST'],
        url,
        bodyLimit: READ_BODY_BYTES,
        config: { selfLimited: true },
        schema: {
          description,
          params: url.endsWith(':action') ? z.object({ token, action: z.string().max(200) }) : z.object({ token }),
          querystring: query,
          response: responses,
        },
        handler: handle,
      })
    }
  })
}
