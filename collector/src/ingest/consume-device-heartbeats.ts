import {
  DEVICES_STREAM,
  type DeviceHeartbeat,
  decodeDeviceHeartbeat,
  deviceHeartbeatSubject,
  type Stoppable,
  type StreamMessage,
} from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { applyHeartbeats } from '../services/devices/apply-heartbeats.ts'
import { publishDeviceEvents } from '../services/devices/outbox.ts'
import { storeHeartbeats } from '../services/devices/store-heartbeats.ts'
import { deadLetter, organizationNamed } from './dead-letter.ts'
import { isolateDataErrors } from './isolate.ts'

export const HEARTBEAT_DURABLE = 'collector-devices'

export interface HeartbeatIngestStats {
  stored: number
  duplicates: number
  deadLettered: number
  batches: number
}

/**
 * The heartbeat side of the ingest, shaped like consumeResults: metrics into ClickHouse, state and
 * inventories into PostgreSQL, both safe to repeat, and the batch acked only after both. Recorded
 * events are published after the ack; what a crash leaves in the outbox the offline job publishes.
 * A heartbeat that breaks the contract, or that a store refuses with a data error (the batch is
 * split until it stands alone), goes to the dead-letter stream; the rest of the batch is stored.
 */
export async function consumeDeviceHeartbeats(ctx: CollectorContext, stats: HeartbeatIngestStats): Promise<Stoppable> {
  return ctx.bus.consume(
    {
      stream: DEVICES_STREAM,
      durable: HEARTBEAT_DURABLE,
      filterSubject: deviceHeartbeatSubject,
      maxBatch: ctx.env.GUARD_INGEST_MAX_BATCH,
      maxWaitMs: ctx.env.GUARD_INGEST_MAX_WAIT_MS,
      ackWaitMs: Math.max(ctx.env.GUARD_INGEST_ACK_WAIT_MS, ctx.env.GUARD_INGEST_MAX_WAIT_MS + 1000),
    },
    async (batch) => {
      const valid: Array<{ message: StreamMessage; heartbeat: DeviceHeartbeat }> = []
      for (const message of batch) {
        try {
          valid.push({ message, heartbeat: decodeDeviceHeartbeat(message.data) })
        } catch (error) {
          stats.deadLettered += 1
          await deadLetter(ctx, {
            source: 'devices',
            consumer: HEARTBEAT_DURABLE,
            message,
            reason: 'contract',
            error,
            organizationId: organizationNamed(message.data),
          })
        }
      }
      let stored: Awaited<ReturnType<typeof isolateDataErrors<(typeof valid)[number], number>>>
      try {
        stored = await isolateDataErrors(valid, async (part) => {
          const heartbeats = part.map((entry) => entry.heartbeat)
          const [fresh] = await Promise.all([
            storeHeartbeats(ctx.timeseries, heartbeats),
            applyHeartbeats(ctx.sql, ctx.env, heartbeats),
          ])
          return fresh.length
        })
      } catch (error) {
        ctx.log.error({ err: error, heartbeats: valid.length }, 'storing heartbeats failed: they will be redelivered')
        throw error
      }
      const fresh = stored.outcomes.reduce((sum, count) => sum + count, 0)
      stats.stored += fresh
      stats.duplicates += valid.length - stored.rejected.length - fresh
      const refused = new Set(stored.rejected.map(({ item }) => item))
      for (const { item, error } of stored.rejected) {
        stats.deadLettered += 1
        await deadLetter(ctx, {
          source: 'devices',
          consumer: HEARTBEAT_DURABLE,
          message: item.message,
          reason: 'data',
          error,
          organizationId: item.heartbeat.organizationId,
        })
      }
      await Promise.all(valid.filter((entry) => !refused.has(entry)).map((entry) => entry.message.ack()))
      stats.batches += 1
      await publishDeviceEvents(ctx).catch((error) =>
        ctx.log.warn({ err: error }, 'device events stay in the outbox until the next attempt'),
      )
    },
  )
}
