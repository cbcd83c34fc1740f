import {
  DEAD_LETTERS_STREAM,
  type DeadLetter,
  decodeDeadLetter,
  type Stoppable,
  type StreamMessage,
} from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { recordDeadLetters } from '../services/dead-letters/record.ts'
import type { IngestMetrics } from './metrics.ts'

export const DEAD_LETTER_DURABLE = 'collector-dead-letters'

/**
 * Keeps what reaches the dead-letter stream in PostgreSQL, where operators list, replay or drop
 * it, and counts each once (replicas share the durable; a redelivery is kept once). A dead letter
 * that is not one (nothing else publishes there) is logged and termed.
 */
export async function consumeDeadLetters(ctx: CollectorContext, metrics: IngestMetrics): Promise<Stoppable> {
  return ctx.bus.consume(
    {
      stream: DEAD_LETTERS_STREAM,
      durable: DEAD_LETTER_DURABLE,
      filterSubject: 'deadletter.>',
      maxBatch: 100,
      maxWaitMs: 50,
      ackWaitMs: 30_000,
    },
    async (batch) => {
      const letters: DeadLetter[] = []
      const settled: StreamMessage[] = []
      for (const message of batch) {
        try {
          letters.push(decodeDeadLetter(message.data))
          settled.push(message)
        } catch (error) {
          ctx.log.error({ err: error, subject: message.subject }, 'not a dead letter: dropped')
          await message.term()
        }
      }
      const kept = await recordDeadLetters(ctx.sql, letters)
      for (const letter of kept) metrics.deadLettered.inc({ source: letter.source, reason: letter.reason })
      await Promise.all(settled.map((message) => message.ack()))
    },
  )
}
