import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  StorageType,
} from '@nats-io/jetstream'
import { connect, Empty, headers, type Msg, nanos, RequestError, TimeoutError } from '@nats-io/transport-node'
import { errorMessage, noResponders, requestTimedOut, responderFailed } from './errors.ts'
import { ensureDurable, runPullLoop } from './nats-consumer.ts'
import { openNatsKv } from './nats-kv.ts'
import type { Bus, Stoppable, StreamSpec } from './types.ts'

export interface NatsBusOptions {
  /** One URL or several separated by commas. */
  servers: string
  /** Connection name, shown by the server's monitoring. */
  name: string
  streams: StreamSpec[]
  /**
   * JetStream replicas of every stream, durable consumer and KV bucket (default 1). Streams and
   * durables declared with fewer are raised to it, so raising it on a grown cluster is a restart;
   * none is lowered, so one process started without the setting cannot undo a cluster's copies
   * (lowering is an operator's `nats stream edit`).
   */
  replicas?: number
  /**
   * The JetStream domain to use, for a client of a leaf node whose streams live on the hub (the
   * hub's `jetstream { domain }`); unset: the JetStream of the server connected to.
   */
  domain?: string
  user?: string
  pass?: string
  token?: string
  /**
   * Told about failures the bus recovers from on its own (a consumer loop retrying, streams
   * not re-declared after a reconnect), so they show up in the logs instead of nowhere.
   */
  onError?: (error: unknown, context: string) => void
}

// A responder's failure travels back in a header, so the requester fails at once with its message.
const errorHeader = 'Guard-Responder-Error'
const drainTimeoutMs = 5000

async function ensureStream(jsm: JetStreamManager, spec: StreamSpec, replicas: number): Promise<void> {
  const settings = { subjects: spec.subjects, duplicate_window: nanos(spec.duplicateWindowMs), num_replicas: replicas }
  let existing: number
  try {
    existing = (await jsm.streams.info(spec.name)).config.num_replicas
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw error
    await jsm.streams.add({ name: spec.name, storage: StorageType.File, ...settings })
    return
  }
  await jsm.streams.update(spec.name, { ...settings, num_replicas: Math.max(existing, replicas) })
}

/** The bus of distributed mode: core NATS for plain subjects and requests, JetStream and KV for the rest. */
export async function createNatsBus(options: NatsBusOptions): Promise<Bus> {
  const nc = await connect({
    servers: options.servers.split(',').map((server) => server.trim()),
    name: options.name,
    maxReconnectAttempts: -1,
    // Jitter spreads the reconnects of many clients after a node of a cluster goes away.
    reconnectJitter: 500,
    // Otherwise every request (each JetStream publish, each KV operation) builds two Error objects up
    // front for their stack traces: about a third of a consumer's event loop in bench/ingest's profile.
    noAsyncTraces: true,
    ...(options.user !== undefined ? { user: options.user } : {}),
    ...(options.pass !== undefined ? { pass: options.pass } : {}),
    ...(options.token !== undefined ? { token: options.token } : {}),
  })
  const report = options.onError ?? (() => {})
  const replicas = options.replicas ?? 1
  const jetStreamOptions = options.domain ? { domain: options.domain } : {}
  const js = jetstream(nc, jetStreamOptions)
  let jsm: JetStreamManager
  try {
    jsm = await jetstreamManager(nc, jetStreamOptions)
    for (const spec of options.streams) await ensureStream(jsm, spec, replicas)
  } catch (error) {
    await nc.close()
    throw error
  }
  const streamsByName = new Map(options.streams.map((spec) => [spec.name, spec]))

  let connected = true
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') connected = false
      if (status.type === 'reconnect') {
        connected = true
        // The server may have come back without its store; publishers need the streams.
        for (const spec of options.streams) {
          ensureStream(jsm, spec, replicas).catch((error: unknown) => report(error, `declaring stream ${spec.name}`))
        }
      }
    }
  })()
  void nc.closed().then(() => {
    connected = false
  })

  const active = new Set<Stoppable>()
  const track = (stoppable: Stoppable) => {
    active.add(stoppable)
    return () => void active.delete(stoppable)
  }

  return {
    async publish(subject, data, { msgId }) {
      const ack = await js.publish(subject, data, { msgID: msgId })
      return { duplicate: ack.duplicate, seq: ack.seq }
    },

    async consume(consumeOptions, handler) {
      const spec = streamsByName.get(consumeOptions.stream)
      if (!spec) throw new Error(`unknown stream '${consumeOptions.stream}'`)
      await ensureDurable(jsm, consumeOptions, replicas)
      const recover = async () => {
        await ensureStream(jsm, spec, replicas)
        await ensureDurable(jsm, consumeOptions, replicas)
      }
      const onError = (error: unknown) => report(error, `consuming ${consumeOptions.stream}/${consumeOptions.durable}`)
      const loop = runPullLoop(nc, js, consumeOptions, recover, handler, onError)
      const consumer: Stoppable = {
        stop: async () => {
          untrack()
          await loop.stop()
        },
      }
      const untrack = track(consumer)
      return consumer
    },

    async backlog(stream, durable) {
      const info = await jsm.consumers.info(stream, durable).catch((error: unknown) => {
        if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound) return undefined
        throw error
      })
      return info ? info.num_pending + info.num_ack_pending : 0
    },

    async emit(subject, data) {
      nc.publish(subject, data)
    },

    async subscribe(subject, onMessage) {
      const subscription = nc.subscribe(subject, {
        callback: (error, message) => {
          if (!error) onMessage(message.data, message.subject)
        },
      })
      return { stop: async () => subscription.unsubscribe() }
    },

    async request(subject, data, { timeoutMs }) {
      let reply: Awaited<ReturnType<typeof nc.request>>
      try {
        reply = await nc.request(subject, data, { timeout: timeoutMs })
      } catch (error) {
        if (error instanceof RequestError && error.isNoResponders()) throw noResponders(subject)
        if (error instanceof TimeoutError) throw requestTimedOut(subject, timeoutMs)
        throw error
      }
      const failure = reply.headers?.get(errorHeader)
      if (failure) throw responderFailed(subject, failure)
      return reply.data
    },

    async respond(subject, queue, responder) {
      const answer = async (message: Msg) => {
        try {
          message.respond(await responder(message.data, message.subject))
        } catch (failure) {
          const failed = headers()
          failed.set(errorHeader, errorMessage(failure).replace(/[\r\n]+/g, ' ') || 'error')
          message.respond(Empty, { headers: failed })
        }
      }
      const subscription = nc.subscribe(subject, {
        queue,
        callback: (error, message) => {
          // A reply that cannot be sent means the connection is gone: the requester times out.
          if (!error) answer(message).catch(() => {})
        },
      })
      // Drain rather than unsubscribe: requests already received still get their reply.
      return { stop: () => subscription.drain() }
    },

    kv: (bucket) => openNatsKv(js, bucket, replicas, track),

    isConnected: () => connected,

    async close() {
      if (nc.isClosed()) return
      await Promise.all([...active].map((stoppable) => stoppable.stop()))
      // Draining flushes what is buffered; during an outage it cannot finish, so close anyway.
      let timer: NodeJS.Timeout | undefined
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, drainTimeoutMs)
      })
      await Promise.race([nc.drain().catch(() => {}), timedOut])
      clearTimeout(timer)
      if (!nc.isClosed()) await nc.close()
    },
  }
}

const firstConnectRetryMs = { initial: 250, max: 5000 }

/**
 * The NATS bus for a process that must start while NATS is away (a probe keeps checking and
 * spools results to its outbox). It returns at once and keeps trying to connect in the
 * background; until then `publish` and `request` reject, `emit` drops the message, and
 * `subscribe`, `respond`, `consume` and `kv` wait for the connection.
 */
export function createNatsBusInBackground(options: NatsBusOptions): Bus {
  const report = options.onError ?? (() => {})
  let inner: Bus | undefined
  let closed = false
  let wake: (() => void) | undefined
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  const ready = (async () => {
    for (let delay = firstConnectRetryMs.initial; !closed; delay = Math.min(delay * 2, firstConnectRetryMs.max)) {
      try {
        const bus = await createNatsBus(options)
        if (closed) {
          await bus.close()
          break
        }
        inner = bus
        return bus
      } catch (error) {
        report(error, 'connecting to NATS (retrying)')
        await pause(delay)
      }
    }
    throw new Error('bus closed before NATS could be reached')
  })()
  ready.catch(() => {})
  const connected = async () => inner ?? ready

  return {
    async publish(subject, data, publishOptions) {
      if (!inner) throw new Error('not connected to NATS yet')
      return inner.publish(subject, data, publishOptions)
    },
    consume: async (consumeOptions, handler) => (await connected()).consume(consumeOptions, handler),
    async backlog(stream, durable) {
      if (!inner) throw new Error('not connected to NATS yet')
      return inner.backlog(stream, durable)
    },
    async emit(subject, data) {
      await inner?.emit(subject, data)
    },
    subscribe: async (subject, onMessage) => (await connected()).subscribe(subject, onMessage),
    async request(subject, data, requestOptions) {
      if (!inner) throw noResponders(subject)
      return inner.request(subject, data, requestOptions)
    },
    respond: async (subject, queue, responder) => (await connected()).respond(subject, queue, responder),
    kv: async (bucket) => (await connected()).kv(bucket),
    isConnected: () => inner?.isConnected() ?? false,
    async close() {
      closed = true
      wake?.()
      await inner?.close()
    },
  }
}
