import { deadLetterReason, deadLetterSource } from '@guard/shared'
import { z } from 'zod'

/** Who may see and act on dead letters: the platform's operator, as identity's admin API knows them. */
export interface PlatformOperator {
  kind: 'admin_token' | 'user' | 'operator'
  id: string
  label: string
}

const PREVIEW_CHARS = 2000

export const deadLetterView = z.object({
  id: z.string(),
  source: deadLetterSource,
  subject: z.string().describe('where the message was published, and where a replay publishes it again'),
  msgId: z.string().nullable(),
  consumer: z.string(),
  reason: deadLetterReason,
  error: z.string().describe('what the consumer or store said'),
  organizationId: z.string().nullable().describe('the organization the message names, when it could be read'),
  deliveryCount: z.number().int(),
  bytes: z.number().int(),
  preview: z.string().describe(`the message as text, its first ${PREVIEW_CHARS} characters`),
  deadLetteredAt: z.string(),
})
export type DeadLetterView = z.infer<typeof deadLetterView>

export const listDeadLettersInput = z.object({
  source: deadLetterSource.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
})

export const deadLetterIdInput = z.object({ id: z.string().min(1).max(64) })

export interface DeadLetterRow {
  id: string
  source: z.infer<typeof deadLetterSource>
  subject: string
  msg_id: string | null
  consumer: string
  reason: z.infer<typeof deadLetterReason>
  error: string
  organization_id: string | null
  delivery_count: number
  data: Uint8Array
  dead_lettered_at: Date
}

export const DEAD_LETTER_COLUMNS =
  'id, source, subject, msg_id, consumer, reason, error, organization_id, delivery_count, data, dead_lettered_at'

export const toDeadLetterView = (row: DeadLetterRow): DeadLetterView => ({
  id: row.id,
  source: row.source,
  subject: row.subject,
  msgId: row.msg_id,
  consumer: row.consumer,
  reason: row.reason,
  error: row.error,
  organizationId: row.organization_id,
  deliveryCount: row.delivery_count,
  bytes: row.data.byteLength,
  preview: new TextDecoder()
    .decode(row.data.subarray(0, PREVIEW_CHARS * 4))
    .slice(0, PREVIEW_CHARS)
    .toWellFormed(),
  deadLetteredAt: new Date(row.dead_lettered_at).toISOString(),
})
