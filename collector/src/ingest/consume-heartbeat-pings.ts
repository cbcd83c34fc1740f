import {
  decodeHeartbeatPing,
  type HeartbeatPing,
  heartbeatPingSubject,
  PINGS_STREAM,
  type Stoppable,
  type StreamMessage,
} from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { applyPings } from '../services/heartbeats/apply-pings.ts'
import { publishHeartbeatResults } from '../services/heartbeats/results.ts'
import { storePings } from '../services/heartbeats/store-pings.ts'
import { deadLetter, organizationNamed } from './dead-letter.ts'
import { isolateDataErrors } from './isolate.ts'

export const PINGS_DURABLE = 'collector-pings'

export interface PingIngestStats {
  stored: number
  deadLettered: number
  batches: number
}

/**
 * Heartbeat pings, shaped like the other consumers: the run state in PostgreSQL decides results,
 * which go on the results stream (the one pipeline to state, history and incidents), and the pings
 * into ClickHouse for the run log, all before the commit and the ack, all safe to repeat (see
 * applyPings). A ping that breaks the contract, or that a store refuses with a data error, goes to
 * the dead-letter stream; the rest of the batch is stored.
 */
export async function consumeHeartbeatPings(ctx: CollectorContext, stats: PingIngestStats): Promise<Stoppable> {
  return ctx.bus.consume(
    {
      stream: PINGS_STREAM,
      durable: PINGS_DURABLE,
      filterSubject: heartbeatPingSubject,
      maxBatch: ctx.env.GUARD_INGEST_MAX_BATCH,
      maxWaitMs: ctx.env.GUARD_INGEST_MAX_WAIT_MS,
      ackWaitMs: Math.max(ctx.env.GUARD_INGEST_ACK_WAIT_MS, ctx.env.GUARD_INGEST_MAX_WAIT_MS + 1000),
    },
    async (batch) => {
      const valid: Array<{ message: StreamMessage; ping: HeartbeatPing }> = []
      for (const message of batch) {
        try {
          valid.push({ message, ping: decodeHeartbeatPing(message.data) })
        } catch (error) {
          stats.deadLettered += 1
          await deadLetter(ctx, {
            source: 'pings',
            consumer: PINGS_DURABLE,
            message,
            reason: 'contract',
            error,
            organizationId: organizationNamed(message.data),
          })
        }
      }
      const redelivered = new Set(
        valid.filter((entry) => entry.message.deliveryCount > 1).map((entry) => entry.ping.id),
      )
      let stored: Awaited<ReturnType<typeof isolateDataErrors<(typeof valid)[number], number>>>
      try {
        stored = await isolateDataErrors(valid, async (part) => {
          const applied = await applyPings(
            ctx.sql,
            part.map((entry) => entry.ping),
            async ({ results, stored }) => {
              await Promise.all([
                publishHeartbeatResults(ctx, results),
                storePings(ctx.timeseries, stored, redelivered),
              ])
            },
          )
          return applied.stored.length
        })
      } catch (error) {
        ctx.log.error({ err: error, pings: valid.length }, 'storing pings failed: they will be redelivered')
        throw error
      }
      stats.stored += stored.outcomes.reduce((sum, count) => sum + count, 0)
      const refused = new Set(stored.rejected.map(({ item }) => item))
      for (const { item, error } of stored.rejected) {
        stats.deadLettered += 1
        await deadLetter(ctx, {
          source: 'pings',
          consumer: PINGS_DURABLE,
          message: item.message,
          reason: 'data',
          error,
          organizationId: item.ping.organizationId,
        })
      }
      await Promise.all(valid.filter((entry) => !refused.has(entry)).map((entry) => entry.message.ack()))
      stats.batches += 1
    },
  )
}
