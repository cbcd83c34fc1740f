import { type CheckResult, decodeCheckResult, type Stoppable, type StreamMessage } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { invalidateReads } from '../services/read-cache/invalidate.ts'
import { storeResults } from '../services/results/store.ts'
import { createIngestMetrics, type IngestMetrics } from './metrics.ts'

export const RESULTS_STREAM = 'RESULTS'
export const INGEST_DURABLE = 'collector-ingest'
export const DEAD_LETTER_SUBJECT = 'deadletter.results'

export interface IngestStats {
  stored: number
  deadLettered: number
  batches: number
}

/**
 * Stores probe results in ClickHouse, feeds them to the monitor state machine, and acks them only
 * after both succeeded, so a crash before the ack redelivers them (the store skips results it
 * already holds, the state machine ignores results it has seen). A message that breaks the wire
 * contract is copied to the dead-letter subject and terminated, so it never blocks the stream.
 */
export async function consumeResults(
  ctx: CollectorContext,
  stats: IngestStats,
  metrics: IngestMetrics = createIngestMetrics(),
): Promise<Stoppable> {
  return ctx.bus.consume(
    {
      stream: RESULTS_STREAM,
      durable: INGEST_DURABLE,
      filterSubject: 'results.>',
      maxBatch: ctx.env.GUARD_INGEST_MAX_BATCH,
      maxWaitMs: ctx.env.GUARD_INGEST_MAX_WAIT_MS,
      ackWaitMs: Math.max(ctx.env.GUARD_INGEST_ACK_WAIT_MS, ctx.env.GUARD_INGEST_MAX_WAIT_MS + 1000),
    },
    async (batch) => {
      metrics.batchSize.observe(batch.length)
      const phase = (name: string, seconds: number) => metrics.phaseSeconds.inc({ phase: name }, seconds)
      const since = (started: number) => (performance.now() - started) / 1000
      let started = performance.now()
      const valid: Array<{ message: StreamMessage; result: CheckResult }> = []
      for (const message of batch) {
        try {
          valid.push({ message, result: decodeCheckResult(message.data) })
        } catch (error) {
          ctx.log.warn({ subject: message.subject, err: error }, 'result breaks the wire contract: dead-lettered')
          await ctx.bus.emit(DEAD_LETTER_SUBJECT, message.data)
          await message.term()
          stats.deadLettered += 1
          metrics.deadLettered.inc()
        }
      }
      const results = valid.map((entry) => entry.result)
      phase('decode', since(started))
      try {
        // Independent writes, each safe to repeat on redelivery, so they run side by side.
        const [fresh] = await Promise.all([
          storeResults(ctx.timeseries, results, phase),
          (async () => {
            const stateStarted = performance.now()
            await applyResultsToState(ctx.sql, results)
            phase('state', since(stateStarted))
          })(),
        ])
        if (results.length > 0) {
          await invalidateReads({ ctx, organizationIds: results.map((result) => result.organizationId) })
        }
        metrics.duplicates.inc(results.length - fresh.length)
        metrics.stored.inc(fresh.length)
      } catch (error) {
        ctx.log.error({ err: error, results: results.length }, 'storing a batch failed: it will be redelivered')
        throw error
      }
      started = performance.now()
      await Promise.all(valid.map((entry) => entry.message.ack()))
      phase('ack', since(started))
      const now = Date.now()
      if (results.length > 0) {
        const oldest = Math.min(...results.map((result) => Date.parse(result.startedAt)))
        metrics.lastLag.set((now - oldest) / 1000)
        for (const result of results) metrics.lag.observe((now - Date.parse(result.startedAt)) / 1000)
      }
      stats.stored += valid.length
      stats.batches += 1
    },
  )
}
