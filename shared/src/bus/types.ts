/**
 * The bus every Guard process talks through. Two implementations keep one contract:
 * NATS (core + JetStream + KV) for distributed mode and an in-process one for embedded mode.
 */

/** A durable stream the bus creates on connect when it does not exist yet. */
export interface StreamSpec {
  name: string
  subjects: string[]
  /** Window in which a repeated message id is dropped as a duplicate. */
  duplicateWindowMs: number
}

export interface PublishAck {
  /** True when the stream already held a message with this id inside its duplicate window. */
  duplicate: boolean
  seq: number
}

/** A message handed to a consumer; it stays pending until acked, and is redelivered otherwise. */
export interface StreamMessage {
  subject: string
  data: Uint8Array
  msgId: string | undefined
  /** 1 on first delivery, incremented on every redelivery. */
  deliveryCount: number
  /** Resolves once the ack is recorded (NATS: read by the server); if it rejects, expect the message again. */
  ack(): Promise<void>
  /** Ask for redelivery, after `delayMs` when given. */
  nak(delayMs?: number): Promise<void>
  /** Never redeliver (poison message). */
  term(): Promise<void>
  /** Still at work on it: restarts the ack wait, so a handler retrying a store in place keeps its batch. */
  working(): Promise<void>
}

export interface ConsumeOptions {
  stream: string
  /** Durable consumer name: replicas using the same name share the work. */
  durable: string
  filterSubject: string
  /** Largest batch handed to the handler. */
  maxBatch: number
  /** How long to wait to fill a batch before handing over what arrived, counted from its first message. */
  maxWaitMs: number
  /**
   * A delivered message not acked within this time is redelivered. The clock starts at delivery,
   * so it must cover maxWaitMs plus the handler's time.
   */
  ackWaitMs: number
}

/**
 * Receives one batch. Messages the handler does not ack, nak or term are redelivered after
 * ackWait; when the handler throws, every message it left unsettled is nak'ed at once, with a
 * redelivery delay growing with its delivery count (100 ms, 200 ms, … 10 s) so a failing
 * handler cannot spin. The bus does not log the error: the handler should.
 */
export type BatchHandler = (batch: StreamMessage[]) => Promise<void>

export interface Stoppable {
  /** Stops delivering and waits for the handler call in flight, if any. */
  stop(): Promise<void>
}

export interface RequestOptions {
  timeoutMs: number
}

/** A request/reply responder; its return value is the reply. */
export type Responder = (data: Uint8Array, subject: string) => Promise<Uint8Array>

export interface KvEntry {
  key: string
  /** null when the key was deleted or purged. */
  value: Uint8Array | null
  /** Counts writes across the whole bucket, not per key. */
  revision: number
  operation: 'PUT' | 'DEL'
}

export interface KvWatchOptions {
  /**
   * Called once the current values of all keys have been delivered, so a watcher knows it
   * has caught up with the bucket before following live changes.
   */
  onCaughtUp?: () => void
}

export interface KvBucket {
  put(key: string, value: Uint8Array): Promise<number>
  /** null when the key does not exist or was deleted. */
  get(key: string): Promise<KvEntry | null>
  delete(key: string): Promise<void>
  keys(): Promise<string[]>
  /**
   * Delivers the latest value of every key (a deleted key as a DEL entry), then every change as
   * it happens. `onEntry` runs outside any put and must not throw.
   */
  watch(onEntry: (entry: KvEntry) => void, options?: KvWatchOptions): Promise<Stoppable>
}

export interface Bus {
  /**
   * Durable publish: resolves once the stream has stored the message. Rejects when the stream
   * cannot be reached (outage, JetStream still recovering); retrying with the same msgId is safe.
   */
  publish(subject: string, data: Uint8Array, options: { msgId: string }): Promise<PublishAck>
  /** At-least-once batch consumption from a durable consumer. */
  consume(options: ConsumeOptions, handler: BatchHandler): Promise<Stoppable>
  /**
   * How many messages of the stream the durable has not settled: not delivered yet, or delivered
   * and neither acked nor termed. 0 for a durable that does not exist.
   */
  backlog(stream: string, durable: string): Promise<number>
  /** Fire-and-forget publish on a plain subject (heartbeats, events). */
  emit(subject: string, data: Uint8Array): Promise<void>
  /** Subscribes to plain subjects (wildcards `*` and `>` as in NATS); `onMessage` must not throw. */
  subscribe(subject: string, onMessage: (data: Uint8Array, subject: string) => void): Promise<Stoppable>
  /**
   * Rejects with a BusRequestError: `no-responders` at once when nothing listens, `timeout`,
   * or `responder-failed` carrying the message of the error the responder threw.
   */
  request(subject: string, data: Uint8Array, options: RequestOptions): Promise<Uint8Array>
  /**
   * Answers requests; responders sharing a queue group split the requests between them. Keep
   * request subjects out of every stream, or JetStream answers them with a publish ack.
   */
  respond(subject: string, queue: string, responder: Responder): Promise<Stoppable>
  kv(bucket: string): Promise<KvBucket>
  /** True while the bus can reach its server (in process: until closed). */
  isConnected(): boolean
  close(): Promise<void>
}
