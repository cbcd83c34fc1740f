import { deadLetterSource, type GuardFastify } from '@guard/shared'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { authenticateOperator, operatorOf } from '../plugins/platform-operator.ts'
import { dropDeadLetter } from '../services/dead-letters/drop.ts'
import { listDeadLetters } from '../services/dead-letters/list.ts'
import { replayDeadLetter } from '../services/dead-letters/replay.ts'
import { deadLetterView } from '../services/dead-letters/schemas.ts'
import { envelope, errorSchema, idParams, ok, unauthorizedSchema } from './common.ts'

const TAGS = ['Admin']
const errors = { 400: errorSchema, 401: unauthorizedSchema, 403: errorSchema, 404: errorSchema, 503: errorSchema }
const security = [{ bearer: [] }]
const whoMay =
  "For the platform's operator: identity's admin token (credentials.json) or an admin's access token with the admin scope; organization API keys are refused."

/**
 * The dead letters of every stream (results, device heartbeats, events): what a consumer could
 * never store, with why, kept until an operator replays or drops it.
 */
export async function deadLetterRoutes(app: GuardFastify, ctx: CollectorContext): Promise<void> {
  await app.register(async (plugin) => {
    const instance = plugin.withTypeProvider<ZodTypeProvider>()
    instance.decorateRequest('operator', undefined)
    instance.addHook('onRequest', authenticateOperator(ctx))
    instance.get(
      '/api/admin/dead-letters',
      {
        schema: {
          summary: 'List dead letters',
          description: `Newest first. ${whoMay}`,
          tags: TAGS,
          security,
          querystring: z.object({
            source: deadLetterSource.optional().describe('only the dead letters of this stream'),
            limit: z.coerce.number().int().min(1).max(500).default(100),
          }),
          response: {
            200: envelope(z.object({ deadLetters: z.array(deadLetterView), total: z.number().int() })),
            ...errors,
          },
        },
      },
      async (request) => ok(await listDeadLetters({ ctx, caller: operatorOf(request), input: request.query })),
    )
    instance.post(
      '/api/admin/dead-letters/:id/replay',
      {
        schema: {
          summary: 'Replay a dead letter',
          description: `Publishes the message on its original subject again and forgets the dead letter; one refused again becomes a new dead letter. ${whoMay}`,
          tags: TAGS,
          security,
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), subject: z.string() })), ...errors },
        },
      },
      async (request) => ok(await replayDeadLetter({ ctx, caller: operatorOf(request), input: request.params })),
    )
    instance.delete(
      '/api/admin/dead-letters/:id',
      {
        schema: {
          summary: 'Drop a dead letter',
          description: `Forgets the dead letter for good. ${whoMay}`,
          tags: TAGS,
          security,
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors },
        },
      },
      async (request) => {
        const { id } = await dropDeadLetter({ ctx, caller: operatorOf(request), input: request.params })
        return ok({ id, deleted: true as const })
      },
    )
  })
}
