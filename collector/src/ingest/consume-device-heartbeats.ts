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

export const HEARTBEAT_DURABLE = 'collector-devices'
export const HEARTBEAT_DEAD_LETTER_SUBJECT = 'deadletter.devices'

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
          ctx.log.warn({ err: error }, 'heartbeat breaks the wire contract: dead-lettered')
          await ctx.bus.emit(HEARTBEAT_DEAD_LETTER_SUBJECT, message.data)
          await message.term()
          stats.deadLettered += 1
        }
      }
      const heartbeats = valid.map((entry) => entry.heartbeat)
      try {
        const [fresh] = await Promise.all([
          storeHeartbeats(ctx.timeseries, heartbeats),
          applyHeartbeats(ctx.sql, ctx.env, heartbeats),
        ])
        stats.stored += fresh.length
        stats.duplicates += heartbeats.length - fresh.length
      } catch (error) {
        ctx.log.error(
          { err: error, heartbeats: heartbeats.length },
          'storing heartbeats failed: they will be redelivered',
        )
        throw error
      }
      await Promise.all(valid.map((entry) => entry.message.ack()))
      stats.batches += 1
      await publishDeviceEvents(ctx).catch((error) =>
        ctx.log.warn({ err: error }, 'device events stay in the outbox until the next attempt'),
      )
    },
  )
}
