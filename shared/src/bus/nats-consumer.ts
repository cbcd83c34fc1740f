import {
  AckPolicy,
  type Consumer,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream'
import { type NatsConnection, nanos } from '@nats-io/transport-node'
import { handBatch } from './batch.ts'
import type { BatchHandler, ConsumeOptions, Stoppable, StreamMessage } from './types.ts'

// The client refuses pull expiries under a second.
const minExpiresMs = 1000
// Enough unacked messages for several replicas with full batches plus those waiting out ackWait;
// the server default (1000) would silently stall a consumer whose handler leaves messages unacked.
const maxAckPending = 10_000

/** Creates the durable pull consumer, or brings its ack wait, filter and replicas in line with the options. */
export async function ensureDurable(jsm: JetStreamManager, options: ConsumeOptions, replicas: number): Promise<void> {
  const wanted = {
    ack_wait: nanos(options.ackWaitMs),
    filter_subject: options.filterSubject,
    max_ack_pending: maxAckPending,
    num_replicas: replicas,
  }
  const existing = await jsm.consumers.info(options.stream, options.durable).catch((error: unknown) => {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound) return undefined
    throw error
  })
  if (!existing) {
    await jsm.consumers.add(options.stream, {
      durable_name: options.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ...wanted,
    })
    return
  }
  const { config } = existing
  // 0 (or absent) on a durable made before replicas were set: it follows its stream's count.
  // Never lowered, like the streams' (see NatsBusOptions.replicas).
  const current = config.num_replicas || replicas
  if (
    config.ack_wait !== wanted.ack_wait ||
    config.filter_subject !== wanted.filter_subject ||
    config.max_ack_pending !== wanted.max_ack_pending ||
    current < replicas
  ) {
    await jsm.consumers.update(options.stream, options.durable, {
      ...wanted,
      num_replicas: Math.max(current, replicas),
    })
  }
}

/**
 * Pulls batches in a loop until stopped. Any failure (server restart, lost consumer, timeouts
 * while disconnected) drops the consumer handle and retries with backoff, recreating the
 * durable through `recover` first; messages lost with a failed fetch come back after ackWait.
 */
export function runPullLoop(
  nc: NatsConnection,
  js: JetStreamClient,
  options: ConsumeOptions,
  recover: () => Promise<void>,
  handler: BatchHandler,
  onError: (error: unknown) => void,
): Stoppable {
  const abort = new AbortController()
  const { signal } = abort
  const confirm = confirmer(nc)
  const loop = (async () => {
    let consumer: Consumer | undefined
    let failures = 0
    while (!signal.aborted) {
      try {
        if (!consumer) {
          if (failures > 0) await recover()
          consumer = await js.consumers.get(options.stream, options.durable)
        }
        await drainOneFetch(consumer, options, signal, handler, confirm)
        failures = 0
      } catch (error) {
        if (signal.aborted) break
        onError(error)
        consumer = undefined
        failures++
        await pause(Math.min(200 * 2 ** (failures - 1), 5000), signal)
      }
    }
  })()
  return {
    stop: async () => {
      abort.abort()
      await loop
    },
  }
}

/**
 * One pull request, cut into batches: a batch closes when full or `maxWaitMs` after its first
 * message, as in process. The pull itself stays open (at least a second, the client's minimum)
 * and what it brings meanwhile starts the next batch.
 */
async function drainOneFetch(
  consumer: Consumer,
  options: ConsumeOptions,
  signal: AbortSignal,
  handler: BatchHandler,
  confirm: () => Promise<void>,
): Promise<void> {
  const messages = await consumer.fetch({
    max_messages: options.maxBatch,
    expires: Math.max(minExpiresMs, options.maxWaitMs),
  })
  const cancel = () => void messages.close()
  signal.addEventListener('abort', cancel)
  if (signal.aborted) cancel()
  try {
    const incoming = messages[Symbol.asyncIterator]()
    let next: Promise<IteratorResult<JsMsg>> | undefined
    let finished = false
    while (!finished) {
      const batch: StreamMessage[] = []
      let timer: NodeJS.Timeout | undefined
      let windowClosed: Promise<undefined> | undefined
      let failure: { error: unknown } | undefined
      try {
        while (batch.length < options.maxBatch) {
          next ??= incoming.next()
          const result = await (windowClosed ? Promise.race([next, windowClosed]) : next)
          if (!result) break
          next = undefined
          if (result.done) {
            finished = true
            break
          }
          batch.push(toStreamMessage(result.value, confirm))
          windowClosed ??= new Promise((resolve) => {
            timer = setTimeout(() => resolve(undefined), options.maxWaitMs)
          })
        }
      } catch (error) {
        // The client ends a fetch with "heartbeats missed" when a handler outlasted the pull: what
        // this batch already holds was delivered to us and would otherwise sit out ackWait.
        failure = { error }
      } finally {
        clearTimeout(timer)
      }
      if (signal.aborted) {
        // Stopped while filling: give them back now rather than after ackWait.
        for (const message of batch) await message.nak()
        return
      }
      if (batch.length > 0) await handBatch(batch, handler)
      if (failure) throw failure.error
    }
  } finally {
    signal.removeEventListener('abort', cancel)
  }
}

/**
 * One PING for all the acks sent in the same turn of the event loop: its PONG means the server has
 * read every ack written before it on this connection. That replaces a request/reply per message
 * (`ackAck`, whose reply says the consumer applied the ack), which cost the event loop about as much
 * as fetching the message. What the weaker confirmation can lose is an ack the server read but did
 * not apply before it crashed or the consumer moved: the message comes back after the ack wait, and
 * every consumer here is idempotent (the ingest's stores skip what they already hold), so a lost ack
 * costs a redelivery, never a duplicate or a lost message.
 */
function confirmer(nc: NatsConnection): () => Promise<void> {
  let next: Promise<void> | undefined
  return () => {
    next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      next = undefined
      return nc.flush()
    })
    return next
  }
}

function toStreamMessage(message: JsMsg, confirm: () => Promise<void>): StreamMessage {
  return {
    subject: message.subject,
    data: message.data,
    msgId: message.headers?.get('Nats-Msg-Id') || undefined,
    deliveryCount: message.info.deliveryCount,
    // Resolves once the server has read the ack (see confirmer).
    ack: async () => {
      message.ack()
      await confirm()
    },
    nak: async (delayMs) => message.nak(delayMs),
    term: async () => message.term(),
    working: async () => message.working(),
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done)
  })
}
