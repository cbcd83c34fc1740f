import { Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import { agentHeartbeat, GuardError, type GuardFastify } from '@guard/shared'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { acceptHeartbeat } from '../services/devices/accept-heartbeat.ts'
import { type AgentDevice, authenticateAgent } from '../services/devices/authenticate-agent.ts'
import { agentDownloadRoutes } from './agent-download.ts'
import { envelope, errorSchema, ok, rateLimitedSchema, unauthorizedSchema } from './common.ts'
import { minuteLimiter } from './minute-limiter.ts'

declare module 'fastify' {
  interface FastifyRequest {
    device: AgentDevice | undefined
  }
}

/** Fails the body with 413 once its decompressed size passes `limit`, so a gzip bomb stops early. */
function sizeLimit(limit: number) {
  let seen = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length
      if (seen > limit) {
        callback(Object.assign(new Error(`Body is larger than ${limit} bytes once decompressed`), { statusCode: 413 }))
        return
      }
      callback(null, chunk)
    },
  })
}

/**
 * POST /agent: device heartbeats, authenticated by the device's own token before the body is read.
 * Not counted against the API keys' hourly limits (an agent at 30 s would exhaust them); limited
 * per device and minute instead (GUARD_AGENT_MAX_PER_MINUTE). The agent's download and install
 * script (agent-download.ts) are public routes beside it.
 */
export async function agentRoutes(app: GuardFastify, ctx: CollectorContext): Promise<void> {
  agentDownloadRoutes(app, ctx)
  const limit = minuteLimiter(ctx.env.GUARD_AGENT_MAX_PER_MINUTE)
  const bodyLimit = ctx.env.GUARD_AGENT_MAX_BODY_BYTES
  app.decorateRequest('device', undefined)
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const device = await authenticateAgent(ctx.sql, request.headers.authorization)
      const decision = limit(device.id)
      // The spec promises these on every response: here they describe the device's minute.
      reply.header('X-RateLimit-Limit', decision.limit)
      reply.header('X-RateLimit-Remaining', decision.remaining)
      reply.header('X-RateLimit-Reset', decision.reset)
      if (!decision.allowed) {
        reply.header('Retry-After', decision.retryAfter)
        throw new GuardError(
          'RATE_LIMIT_EXCEEDED',
          `More than ${ctx.env.GUARD_AGENT_MAX_PER_MINUTE} heartbeats this minute from one device`,
          { retry_after: decision.retryAfter },
        )
      }
      request.device = device
    })
    scope.addHook('preParsing', async (request, _reply, payload) => {
      const encoding = request.headers['content-encoding']?.trim().toLowerCase()
      if (!encoding || encoding === 'identity') return payload
      if (encoding !== 'gzip') {
        throw new GuardError('UNSUPPORTED_MEDIA_TYPE', 'Content-Encoding must be gzip or identity')
      }
      const limited = sizeLimit(bodyLimit)
      const counted = Object.assign(limited, { receivedEncodedLength: 0 })
      payload.on('data', (chunk: Buffer) => {
        counted.receivedEncodedLength += chunk.length
      })
      pipeline(payload, createGunzip(), limited).catch(() => {
        // The error reaches fastify through the returned stream; nothing else to do here.
      })
      return counted
    })
    scope.post(
      '/agent',
      {
        bodyLimit,
        config: { perDevice: true },
        schema: {
          description: `Device heartbeat, \`Authorization: Bearer <device token>\`. Answers 200 once the heartbeat is stored on the bus. Accepts \`Content-Encoding: gzip\`; bodies above ${bodyLimit} bytes (decompressed) get 413. Not counted against API rate limits; at most GUARD_AGENT_MAX_PER_MINUTE heartbeats per device and minute.`,
          security: [{ deviceToken: [] }],
          body: agentHeartbeat,
          response: {
            200: envelope(z.object({ received: z.literal(true), timestamp: z.string(), duplicate: z.boolean() })),
            400: errorSchema,
            401: unauthorizedSchema,
            403: errorSchema,
            413: errorSchema,
            415: errorSchema,
            429: rateLimitedSchema,
            503: errorSchema,
          },
        },
      },
      async (request: FastifyRequest<{ Body: z.infer<typeof agentHeartbeat> }>) => {
        const accepted = await acceptHeartbeat(ctx, request.device!, request.body)
        return ok({ received: true as const, ...accepted })
      },
    )
  })
}
