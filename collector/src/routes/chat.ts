import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { CHAT_WRITE } from '../services/auth/permissions.ts'
import {
  conversationDetail,
  conversationView,
  getConversation,
  listConversations,
  listConversationsQuery,
  saveExchange,
  saveExchangeInput,
} from '../services/chat/conversations.ts'
import { envelope, errorResponses, errorSchema, idParams, ok } from './common.ts'

/** A signed-in user's own conversations: reading needs a token that may read, saving one that may write. */
const userReads = { access: { user: true as const, permission: 'chat:read' as const } }
const userWrites = { access: { user: true as const, permission: CHAT_WRITE } }
const pagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
})

export function chatRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/chat/conversations',
    {
      config: userReads,
      schema: {
        description: "The signed-in user's own conversations in the organization, newest first.",
        querystring: listConversationsQuery,
        response: {
          200: z.object({ success: z.literal(true), data: z.array(conversationView), pagination }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listConversations(ctx, callerOf(request), request.query)),
    }),
  )
  app.post(
    '/api/chat/conversations',
    {
      config: userWrites,
      schema: {
        description:
          'Appends a userMessage/assistantMessage exchange to conversationId, or starts a conversation titled by the first message. Messages up to 20,000 (user) and 50,000 (assistant) characters; 1,000 messages per conversation.',
        body: saveExchangeInput,
        response: { 200: envelope(conversationDetail), 413: errorSchema, ...errorResponses },
      },
    },
    async (request) => ok(await saveExchange(ctx, callerOf(request), request.body)),
  )
  app.get(
    '/api/chat/conversations/:id',
    {
      config: userReads,
      schema: { params: idParams, response: { 200: envelope(conversationDetail), ...errorResponses } },
    },
    async (request) => ok(await getConversation(ctx, callerOf(request), request.params.id)),
  )
}
