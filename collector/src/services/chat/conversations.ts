import { GuardError, newId, notFound, truncateText } from '@guard/shared'
import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'

export const saveExchangeInput = z
  .object({
    conversationId: z.string().min(1).max(64).optional(),
    userMessage: z.string().trim().min(1).max(20_000),
    assistantMessage: z.string().max(50_000),
    organizationId: z.string().min(1).max(64).optional(),
  })
  .strict()
export const listConversationsQuery = z.object({
  organizationId: z.string().max(64).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
})
export const conversationView = z.object({
  id: z.string(),
  title: z.string(),
  messageCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export const conversationDetail = conversationView.extend({
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string(), createdAt: z.string() })),
})
export type ConversationDetail = z.infer<typeof conversationDetail>
/** Exchanges one conversation may hold; a longer one is refused rather than growing without end. */
const MAX_MESSAGES = 1000

const userOf = (caller: Caller) => {
  if (caller.principal.kind !== 'user') throw new GuardError('FORBIDDEN', 'Conversations belong to signed-in users')
  return caller.principal.id
}

interface ConversationRow {
  id: string
  title: string
  message_count: number
  created_at: Date
  updated_at: Date
}
const SELECT = `SELECT c.id, c.title, c.created_at, c.updated_at,
                       (SELECT count(*)::int FROM monitoring.chat_messages m WHERE m.conversation_id = c.id) AS message_count
                  FROM monitoring.chat_conversations c`
const toView = (row: ConversationRow) => ({
  id: row.id,
  title: row.title,
  messageCount: row.message_count,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
})

/** The caller's own conversation; anybody else's is "not found", whatever their organization role. */
export async function getConversation(ctx: CollectorContext, caller: Caller, id: string): Promise<ConversationDetail> {
  const { rows } = await ctx.sql.query<ConversationRow>(
    `${SELECT} WHERE c.id = $1 AND c.user_id = $2 AND c.organization_id = ANY($3)`,
    [id, userOf(caller), caller.organizationIds],
  )
  if (!rows[0]) throw notFound('Conversation')
  const messages = await ctx.sql.query<{ role: 'user' | 'assistant'; content: string; created_at: Date }>(
    'SELECT role, content, created_at FROM monitoring.chat_messages WHERE conversation_id = $1 ORDER BY position',
    [id],
  )
  return {
    ...toView(rows[0]),
    messages: messages.rows.map((row) => ({
      role: row.role,
      content: row.content,
      createdAt: row.created_at.toISOString(),
    })),
  }
}

export async function listConversations(
  ctx: CollectorContext,
  caller: Caller,
  query: z.input<typeof listConversationsQuery>,
) {
  const { organizationId, page, limit } = listConversationsQuery.parse(query)
  const organization = organizationScope(caller, organizationId)
  const user = userOf(caller)
  const [{ rows }, counted] = await Promise.all([
    ctx.sql.query<ConversationRow>(
      `${SELECT} WHERE c.user_id = $1 AND c.organization_id = $2 ORDER BY c.updated_at DESC, c.id DESC LIMIT $3 OFFSET $4`,
      [user, organization, limit, (page - 1) * limit],
    ),
    ctx.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM monitoring.chat_conversations WHERE user_id = $1 AND organization_id = $2',
      [user, organization],
    ),
  ])
  const total = counted.rows[0]?.n ?? 0
  return { data: rows.map(toView), pagination: { page, limit, total, totalPages: Math.ceil(total / limit) } }
}

/** Appends a user/assistant exchange to the caller's conversation, or starts one titled by the first message. */
export async function saveExchange(ctx: CollectorContext, caller: Caller, body: unknown): Promise<ConversationDetail> {
  const input = saveExchangeInput.parse(body)
  const user = userOf(caller)
  const id = await ctx.sql.transaction(async (tx) => {
    let conversationId = input.conversationId
    if (conversationId) {
      const { rows } = await tx.query<{ id: string }>(
        `SELECT id FROM monitoring.chat_conversations WHERE id = $1 AND user_id = $2 AND organization_id = ANY($3)
            FOR UPDATE`,
        [conversationId, user, caller.organizationIds],
      )
      if (!rows[0]) throw notFound('Conversation')
      await tx.query('UPDATE monitoring.chat_conversations SET updated_at = now() WHERE id = $1', [conversationId])
    } else {
      conversationId = newId()
      const title = truncateText(input.userMessage.replace(/\s+/g, ' '), 80)
      await tx.query(
        'INSERT INTO monitoring.chat_conversations (id, organization_id, user_id, title) VALUES ($1, $2, $3, $4)',
        [conversationId, organizationScope(caller, input.organizationId), user, title],
      )
    }
    const { rows } = await tx.query<{ next: number }>(
      'SELECT coalesce(max(position) + 1, 0)::int AS next FROM monitoring.chat_messages WHERE conversation_id = $1',
      [conversationId],
    )
    const next = rows[0]?.next ?? 0
    if (next + 2 > MAX_MESSAGES) {
      throw new GuardError(
        'PAYLOAD_TOO_LARGE',
        `A conversation holds at most ${MAX_MESSAGES} messages; start a new one`,
      )
    }
    await tx.query(
      `INSERT INTO monitoring.chat_messages (id, conversation_id, role, content, position)
       VALUES ($1, $3, 'user', $4, $5), ($2, $3, 'assistant', $6, $5 + 1)`,
      [newId(), newId(), conversationId, input.userMessage, next, input.assistantMessage],
    )
    return conversationId
  })
  return getConversation(ctx, caller, id)
}
