import { type CheckResult, decodeCheckResult, type Stoppable, type StreamMessage } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { storeResults } from '../services/results/store.ts'

export const RESULTS_STREAM = 'RESULTS'
export const INGEST_DURABLE = 'collector-ingest'
export const DEAD_LETTER_SUBJECT = 'deadletter.results'

export interface IngestStats {
  stored: number
  deadLettered: number
  batches: number
}

/**
 * Stores probe results in ClickHouse and acks them only after the insert succeeded, so a crash
 * before the ack redelivers them (ClickHouse collapses the repeat). A message that breaks the wire
 * contract is copied to the dead-letter subject and terminated, so it never blocks the stream.
 */
export async function consumeResults(ctx: CollectorContext, stats: IngestStats): Promise<Stoppable> {
  return ctx.bus.consume(
    {
      stream: RESULTS_STREAM,
      durable: INGEST_DURABLE,
      filterSubject: 'results.>',
      maxBatch: ctx.env.GUARD_INGEST_MAX_BATCH,
      maxWaitMs: ctx.env.GUARD_INGEST_MAX_WAIT_MS,
      ackWaitMs: 30_000,
    },
    async (batch) => {
      const valid: Array<{ message: StreamMessage; result: CheckResult }> = []
      for (const message of batch) {
        try {
          valid.push({ message, result: decodeCheckResult(message.data) })
        } catch (error) {
          ctx.log.warn({ subject: message.subject, err: error }, 'result breaks the wire contract: dead-lettered')
          await ctx.bus.emit(DEAD_LETTER_SUBJECT, message.data)
          await message.term()
          stats.deadLettered += 1
        }
      }
      await storeResults(
        ctx.timeseries,
        valid.map((entry) => entry.result),
      )
      await Promise.all(valid.map((entry) => entry.message.ack()))
      stats.stored += valid.length
      stats.batches += 1
    },
  )
}
