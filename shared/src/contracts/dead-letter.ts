import { createHash } from 'node:crypto'
import { z } from 'zod'
import { parseWellFormedJson } from '../text/well-formed.ts'

/** Where a consumer puts a message it can never store, so the stream behind it keeps moving. */
export const DEAD_LETTERS_STREAM = 'DEADLETTERS'

export const deadLetterSource = z.enum(['results', 'devices', 'events', 'pings'])
export type DeadLetterSource = z.infer<typeof deadLetterSource>

export const deadLetterReason = z
  .enum(['contract', 'data', 'handler'])
  .describe(
    'contract: the message is not a valid message of its kind; data: a store refused it (PostgreSQL data or constraint error, ClickHouse parse or type error); handler: a reaction kept failing on it',
  )

export const deadLetterV1 = z.object({
  v: z.literal(1),
  /** Stable for one message at one consumer, so a dead letter written twice is kept once. */
  id: z.string().min(1),
  source: deadLetterSource,
  /** The original subject: a replay publishes the message there again. */
  subject: z.string().min(1),
  msgId: z.string().optional(),
  consumer: z.string().min(1),
  reason: deadLetterReason,
  error: z.string().max(2000),
  /** The organization the message names, when it can be read: operators see whose it was. */
  organizationId: z.string().optional(),
  deliveryCount: z.number().int().nonnegative(),
  /** The message's bytes as they were on the stream, base64. */
  data: z.string(),
  deadLetteredAt: z.iso.datetime(),
})
export type DeadLetter = z.infer<typeof deadLetterV1>

export const deadLetterSubject = (source: DeadLetterSource) => `deadletter.${source}`

export const deadLetterId = (consumer: string, subject: string, msgId: string | undefined, data: Uint8Array) =>
  createHash('sha256')
    .update(consumer)
    .update('\0')
    .update(subject)
    .update('\0')
    .update(msgId ?? createHash('sha256').update(data).digest('hex'))
    .digest('base64url')
    .slice(0, 32)

export function encodeDeadLetter(letter: DeadLetter): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(deadLetterV1.parse(letter)))
}

export function decodeDeadLetter(data: Uint8Array): DeadLetter {
  return deadLetterV1.parse(parseWellFormedJson(new TextDecoder().decode(data)))
}
