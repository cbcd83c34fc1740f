import { subjectMatches } from './subject.ts'
import type { PublishAck, StreamMessage, StreamSpec } from './types.ts'

interface Stored {
  subject: string
  data: Uint8Array
  msgId: string
  at: number
}

// Settled messages stay this long, so a durable that registers a little after another one
// (two consumers of a process starting up) still sees everything.
const settledRetentionMs = 60_000

/** What a durable needs from its stream. */
interface Log {
  lastSeq(): number
  message(seq: number): Stored | undefined
  settled(): void
}

/**
 * An append-only log with JetStream's publish semantics: sequence numbers and a message-id
 * window that drops repeats. Unlike a limits-retention stream it forgets messages every
 * durable has settled (after a grace period), so an embedded process that runs for months
 * does not grow without bound; a durable created later starts at the oldest message kept.
 */
export class MemoryStream {
  private seq = 0
  private trimmedTo = 0
  private readonly messages = new Map<number, Stored>()
  private readonly recentIds = new Map<string, { seq: number; at: number }>()
  private readonly durables = new Map<string, Durable>()
  private readonly log: Log = {
    lastSeq: () => this.seq,
    message: (seq) => this.messages.get(seq),
    settled: () => this.trim(),
  }

  constructor(readonly spec: StreamSpec) {}

  covers(subject: string): boolean {
    return this.spec.subjects.some((pattern) => subjectMatches(pattern, subject))
  }

  append(subject: string, data: Uint8Array, msgId: string): PublishAck {
    const now = Date.now()
    this.forgetIdsBefore(now - this.spec.duplicateWindowMs)
    const seen = this.recentIds.get(msgId)
    if (seen) return { duplicate: true, seq: seen.seq }
    const seq = ++this.seq
    this.messages.set(seq, { subject, data: data.slice(), msgId, at: now })
    this.recentIds.set(msgId, { seq, at: now })
    for (const durable of this.durables.values()) durable.dispatch()
    return { duplicate: false, seq }
  }

  /** The durable of that name, created on first use; a later call updates its filter and ack wait. */
  durable(name: string, filterSubject: string, ackWaitMs: number): Durable {
    let durable = this.durables.get(name)
    if (!durable) {
      durable = new Durable(this.log, this.trimmedTo)
      this.durables.set(name, durable)
    }
    durable.configure(filterSubject, ackWaitMs)
    return durable
  }

  close(): void {
    for (const durable of this.durables.values()) durable.close()
  }

  // Insertion order is publish order, so expired ids are always at the front.
  private forgetIdsBefore(cutoff: number): void {
    for (const [id, { at }] of this.recentIds) {
      if (at > cutoff) return
      this.recentIds.delete(id)
    }
  }

  private trim(): void {
    let floor = Number.POSITIVE_INFINITY
    for (const durable of this.durables.values()) floor = Math.min(floor, durable.ackFloor())
    const keepFrom = Date.now() - settledRetentionMs
    while (this.trimmedTo < floor) {
      const oldest = this.messages.get(this.trimmedTo + 1)
      if (oldest && oldest.at > keepFrom) return
      this.messages.delete(++this.trimmedTo)
    }
  }
}

interface Delivery {
  deliveries: number
  inFlight: boolean
  timer?: NodeJS.Timeout
}

interface Puller {
  give(message: StreamMessage): void
}

/** A durable consumer: its position, its pending deliveries and the pulls waiting on it. */
export class Durable {
  private filterSubject = '>'
  private ackWaitMs = 30_000
  /** Delivered and not yet acked or termed. */
  private readonly pending = new Map<number, Delivery>()
  /** Pending sequences ready to go out again, oldest first. */
  private readonly due: number[] = []
  private readonly pullers = new Set<Puller>()

  constructor(
    private readonly log: Log,
    /** Every sequence up to here has been considered for a first delivery. */
    private cursor: number,
  ) {}

  configure(filterSubject: string, ackWaitMs: number): void {
    this.filterSubject = filterSubject
    this.ackWaitMs = ackWaitMs
  }

  /** Every sequence at or below this one is settled (or was never for this durable). */
  ackFloor(): number {
    let floor = this.cursor
    for (const seq of this.pending.keys()) floor = Math.min(floor, seq - 1)
    return floor
  }

  /**
   * Resolves with up to `max` messages: waits for the first one, then up to `maxWaitMs` for the
   * batch to fill. An abort resolves with whatever was collected, possibly nothing.
   */
  pull(max: number, maxWaitMs: number, signal: AbortSignal): Promise<StreamMessage[]> {
    return new Promise((resolve) => {
      const batch: StreamMessage[] = []
      if (signal.aborted) return resolve(batch)
      let timer: NodeJS.Timeout | undefined
      const finish = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', finish)
        this.pullers.delete(puller)
        resolve(batch)
      }
      const puller: Puller = {
        give: (message) => {
          batch.push(message)
          if (batch.length >= max) finish()
          else timer ??= setTimeout(finish, maxWaitMs)
        },
      }
      signal.addEventListener('abort', finish)
      this.pullers.add(puller)
      this.dispatch()
    })
  }

  /** Hands available messages to waiting pulls, one each in turn, so replicas share the work. */
  dispatch(): void {
    while (this.pullers.size > 0) {
      for (const puller of [...this.pullers]) {
        const seq = this.nextSeq()
        if (seq === undefined) return
        puller.give(this.deliver(seq))
      }
    }
  }

  close(): void {
    for (const delivery of this.pending.values()) clearTimeout(delivery.timer)
    this.pending.clear()
    this.due.length = 0
  }

  private nextSeq(): number | undefined {
    for (let seq = this.due.shift(); seq !== undefined; seq = this.due.shift()) {
      // An ack from an earlier delivery may have settled it while it waited.
      const delivery = this.pending.get(seq)
      if (delivery && !delivery.inFlight) return seq
    }
    while (this.cursor < this.log.lastSeq()) {
      const message = this.log.message(++this.cursor)
      if (message && subjectMatches(this.filterSubject, message.subject)) return this.cursor
    }
    return undefined
  }

  private deliver(seq: number): StreamMessage {
    const stored = this.log.message(seq)
    if (!stored) throw new Error(`stream lost pending message ${seq}`)
    const delivery = this.pending.get(seq) ?? { deliveries: 0, inFlight: false }
    delivery.deliveries++
    delivery.inFlight = true
    const count = delivery.deliveries
    delivery.timer = setTimeout(() => this.requeue(seq, count), this.ackWaitMs)
    this.pending.set(seq, delivery)
    return {
      subject: stored.subject,
      data: stored.data,
      msgId: stored.msgId,
      deliveryCount: count,
      ack: async () => this.settle(seq),
      term: async () => this.settle(seq),
      nak: async (delayMs) => this.requeue(seq, count, delayMs),
    }
  }

  private settle(seq: number): void {
    const delivery = this.pending.get(seq)
    if (!delivery) return
    clearTimeout(delivery.timer)
    this.pending.delete(seq)
    this.log.settled()
  }

  /** Takes delivery `count` of `seq` back (ack wait ran out, or nak) and queues it again. */
  private requeue(seq: number, count: number, delayMs?: number): void {
    const delivery = this.pending.get(seq)
    if (!delivery?.inFlight || delivery.deliveries !== count) return
    clearTimeout(delivery.timer)
    delivery.inFlight = false
    const makeDue = () => {
      delivery.timer = undefined
      this.due.push(seq)
      this.dispatch()
    }
    if (delayMs) delivery.timer = setTimeout(makeDue, delayMs)
    else makeDue()
  }
}
