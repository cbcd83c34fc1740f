import type { deadLetterReason } from '@guard/shared'
import {
  type DeadLetterSource,
  deadLetterId,
  deadLetterSubject,
  encodeDeadLetter,
  type StreamMessage,
  truncateText,
} from '@guard/shared'
import type { z } from 'zod'
import type { CollectorContext } from '../context.ts'

export interface DeadLetterInput {
  source: DeadLetterSource
  consumer: string
  message: StreamMessage
  reason: z.infer<typeof deadLetterReason>
  error: unknown
  organizationId?: string | undefined
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Reads the organization a message names without trusting the rest of it, for the operator's list. */
export function organizationNamed(data: Uint8Array): string | undefined {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(data))
    const id = (parsed as { organizationId?: unknown } | null)?.organizationId
    return typeof id === 'string' && id.length <= 64 ? id.toWellFormed() : undefined
  } catch {
    return undefined
  }
}

/**
 * Moves a message a consumer can never store to the dead-letter stream, with why, and terms it so
 * its stream moves on. The dead letter is durable before the term: a crash in between brings the
 * message back, and the dead letter's id (the same for the same message at the same consumer)
 * keeps it once. Rejects when the bus cannot store it: the message then stays unacked and comes
 * back after the ack wait.
 */
export async function deadLetter(ctx: CollectorContext, input: DeadLetterInput): Promise<void> {
  const { message } = input
  const id = deadLetterId(input.consumer, message.subject, message.msgId, message.data)
  const letter = encodeDeadLetter({
    v: 1,
    id,
    source: input.source,
    subject: message.subject,
    ...(message.msgId ? { msgId: message.msgId } : {}),
    consumer: input.consumer,
    reason: input.reason,
    error: truncateText(describe(input.error), 2000),
    ...(input.organizationId ? { organizationId: input.organizationId } : {}),
    deliveryCount: message.deliveryCount,
    data: Buffer.from(message.data).toString('base64'),
    deadLetteredAt: new Date().toISOString(),
  })
  await ctx.bus.publish(deadLetterSubject(input.source), letter, { msgId: id })
  ctx.log.warn(
    { source: input.source, consumer: input.consumer, reason: input.reason, deadLetter: id, err: input.error },
    'a message the stores refuse went to the dead-letter stream; the stream moves on',
  )
  await message.term()
}
