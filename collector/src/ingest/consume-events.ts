import {
  decodeEvent,
  EVENTS_STREAM,
  type EventOf,
  type GuardEvent,
  type GuardEventType,
  isDataError,
  isStoreUnavailable,
  type Sql,
  type Stoppable,
  type StreamMessage,
} from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { publishStagedEvents } from '../services/events/publish.ts'
import { deadLetter, organizationNamed } from './dead-letter.ts'

/** What a handler may do besides writing through `tx`: stage events, and act after the commit. */
export interface HandlerScope {
  tx: Sql
  /** Ids of events the handler staged in `tx`; published once the transaction commits. */
  staged: string[]
  /**
   * Runs after the commit, before the staged events are published (live pushes, waking workers,
   * invalidating cached reads); a failure there is logged, not retried.
   */
  afterCommit: Array<() => Promise<void> | void>
  /**
   * Remembers a lookup for the rest of the batch (one transaction): what the handlers only read,
   * such as an organization's routes, is then read once per batch instead of once per event.
   */
  memo?: Memo
}

export type Memo = <T>(key: string, load: () => Promise<T>) => Promise<T>

/** For callers outside a batch: every lookup is made. */
export const noMemo: Memo = (_key, load) => load()

/** A memo for one batch. */
export function batchMemo(): Memo {
  const remembered = new Map<string, Promise<unknown>>()
  return <T>(key: string, load: () => Promise<T>) => {
    let value = remembered.get(key) as Promise<T> | undefined
    if (!value) {
      value = load()
      remembered.set(key, value)
    }
    return value
  }
}

export type EventHandlers = { [T in GuardEventType]?: (event: EventOf<T>, scope: HandlerScope) => Promise<void> }

/** Deliveries after which an event whose handler keeps failing (not for want of a store) is dead-lettered. */
const MAX_DELIVERIES = 5

/**
 * The one consumer pattern for platform events: a durable consumer (replicas share its name, so
 * they split the work) whose handler runs in one transaction with a row in processed_events, so a
 * redelivered event changes nothing twice. Events are acked only after that transaction commits.
 * A batch runs in one transaction; when it fails, its events are retried one by one, so a poison
 * event cannot hold back the others: one a store refuses with a data error is dead-lettered at
 * once, one whose handler keeps failing after a few deliveries. An event that fails because a
 * store is away is never dead-lettered: it waits, as results do.
 */
export async function consumeEvents(
  ctx: CollectorContext,
  consumer: string,
  handlers: EventHandlers,
): Promise<Stoppable> {
  const handle = async (tx: Sql, event: GuardEvent, scope: HandlerScope) => {
    const handler = handlers[event.type] as ((event: GuardEvent, scope: HandlerScope) => Promise<void>) | undefined
    if (!handler) return
    const { rows } = await tx.query(
      `INSERT INTO monitoring.processed_events (consumer, event_id) VALUES ($1, $2)
       ON CONFLICT DO NOTHING RETURNING event_id`,
      [consumer, event.id],
    )
    if (rows.length === 0) return
    await handler(event, scope)
  }

  const run = async (entries: Array<{ message: StreamMessage; event: GuardEvent }>) => {
    const scope: Omit<HandlerScope, 'tx'> = { staged: [], afterCommit: [], memo: batchMemo() }
    await ctx.sql.transaction(async (tx) => {
      for (const { event } of entries) await handle(tx, event, { ...scope, tx })
    })
    // Before publishing: whoever sees the batch processed (its rows committed) finds the cached reads
    // it changed already invalidated here, not a bus round trip later.
    for (const after of scope.afterCommit) {
      try {
        await after()
      } catch (error) {
        ctx.log.warn({ err: error, consumer }, 'after-commit step failed')
      }
    }
    await publishStagedEvents(ctx, { ids: scope.staged }).catch((error: unknown) =>
      ctx.log.warn({ err: error, consumer }, 'publishing events failed: the relay will retry'),
    )
    await Promise.all(entries.map(({ message }) => message.ack()))
  }

  return ctx.bus.consume(
    {
      stream: EVENTS_STREAM,
      durable: consumer,
      filterSubject: 'events.>',
      // Small batches keep each transaction, and the wait of the events behind it, short.
      maxBatch: 100,
      maxWaitMs: 20,
      ackWaitMs: 30_000,
    },
    async (batch) => {
      const entries: Array<{ message: StreamMessage; event: GuardEvent }> = []
      for (const message of batch) {
        try {
          entries.push({ message, event: decodeEvent(message.data) })
        } catch (error) {
          await deadLetter(ctx, {
            source: 'events',
            consumer,
            message,
            reason: 'contract',
            error,
            organizationId: organizationNamed(message.data),
          })
        }
      }
      try {
        await run(entries)
        return
      } catch (error) {
        ctx.log.warn({ err: error, consumer, events: entries.length }, 'event batch failed: retrying one by one')
      }
      for (const entry of entries) {
        try {
          await run([entry])
        } catch (error) {
          const refused = isDataError(error)
          if (refused || (entry.message.deliveryCount >= MAX_DELIVERIES && !isStoreUnavailable(error))) {
            await deadLetter(ctx, {
              source: 'events',
              consumer,
              message: entry.message,
              reason: refused ? 'data' : 'handler',
              error,
              organizationId: entry.event.organizationId,
            })
          } else {
            ctx.log.warn({ err: error, consumer, event: entry.event.id }, 'event failed: it will be redelivered')
            await entry.message.nak(250 * 2 ** entry.message.deliveryCount)
          }
        }
      }
    },
  )
}
