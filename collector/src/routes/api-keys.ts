import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { issueApiKey } from '../services/api-keys/issue.ts'
import { listApiKeys } from '../services/api-keys/list.ts'
import { revokeApiKey } from '../services/api-keys/revoke.ts'
import { apiKeyView, createApiKeyInput } from '../services/api-keys/schemas.ts'
import { deleted, envelope, errorResponses, ok } from './common.ts'

/**
 * Signed-in users only (an API key cannot list, mint or revoke keys); minting and revoking is for
 * admins and owners, through a token with the first-party scope api-keys:write.
 */
const userReads = { access: { user: true as const, permission: 'api-keys:read' as const } }
const userWrites = { access: { user: true as const, permission: 'api-keys:write' as const } }
const keyParams = z.object({ keyId: z.string().min(1).max(64) })

export function apiKeyRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api-keys',
    { config: userReads, schema: { response: { 200: envelope(z.array(apiKeyView)), ...errorResponses } } },
    async (request) => ok(await listApiKeys(ctx, callerOf(request))),
  )

  app.post(
    '/api-keys',
    {
      config: userWrites,
      schema: {
        description:
          "Creates a key. `key` is in this response only; the collector keeps its SHA-256. Needs api-keys:write: an admin's or owner's token holding the first-party scope api-keys:write (the console), never a third-party application's. A key that belongs to its creator (`belongs_to: user`) acts with at most their current rights; only an owner creates one that belongs to the organization.",
        body: createApiKeyInput,
        response: { 201: envelope(apiKeyView.extend({ key: z.string() })), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(ok(await issueApiKey({ ctx, caller: callerOf(request), input: request.body }))),
  )

  app.delete(
    '/api-keys/:keyId',
    { config: userWrites, schema: { params: keyParams, response: { 200: deleted, ...errorResponses } } },
    async (request) => {
      await revokeApiKey(ctx, callerOf(request), request.params.keyId)
      return ok({ id: request.params.keyId, deleted: true as const })
    },
  )
}
