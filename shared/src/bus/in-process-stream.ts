import { subjectMatches } from './subject.ts'
import type { PublishAck, StreamMessage, StreamSpec } from './types.ts'

export interface Stored {
  subject: string
  data: Uint8Array
  msgId: string
  at: number
}

/** A durable's position, enough to resume it after a restart: nothing acked comes back, nothing delivered is new again. */
export interface DurableSnapshot {
  /** Every sequence up to here has been considered for a first delivery. */
  cursor: number
  /** Delivered and not yet acked: [sequence, deliveries so far]. */
  pending: Array<[number, number]>
}

/**
 * Where a stream keeps its messages and its durables' positions when it must survive a restart
 * (the embedded bus on disk). Without one, a stream lives in memory only.
 */
export interface StreamDisk {
  /** Resolves once the message is stored as the fsync policy says. */
  write(seq: number, message: Stored): Promise<void>
  saveDurable(name: string, snapshot: DurableSnapshot): Promise<void>
  /**
   * Frees storage every durable is done with (through `settledThrough`) and applies the size and
   * age limits; resolves with the highest sequence no longer kept.
   */
  retain(settledThrough: number, now: number): Promise<number>
  close(): Promise<void>
}

/** What a stream on disk held when it was opened. */
export interface RestoredStream {
  messages: Array<[number, Stored]>
  lastSeq: number
  durables: Map<string, DurableSnapshot>
}

// Settled messages stay this long, so a durable that registers a little after another one
// (two consumers of a process starting up) still sees everything.
const settledRetentionMs = 60_000

/** What a durable needs from its stream. */
interface Log {
  lastSeq(): number
  /** Every sequence at or below this one is gone (settled and trimmed, or cut by retention). */
  firstSeq(): number
  message(seq: number): Stored | undefined
  settled(): void
}

/**
 * An append-only log with JetStream's publish semantics: sequence numbers and a message-id
 * window that drops repeats. Unlike a limits-retention stream it forgets messages every
 * durable has settled (after a grace period), so an embedded process that runs for months
 * does not grow without bound; a durable created later starts at the oldest message kept.
 * With a disk, a publish resolves once the message is stored there, and the durables'
 * positions are saved before a delivery is handed out and before an ack resolves.
 */
export class MemoryStream {
  private seq = 0
  /** Highest sequence stored (on disk when there is one): what consumers may see. */
  private visibleSeq = 0
  private trimmedTo = 0
  private readonly messages = new Map<number, Stored>()
  private readonly recentIds = new Map<string, { seq: number; at: number; stored: Promise<void> | undefined }>()
  private readonly durables = new Map<string, Durable>()
  private readonly restoredDurables: Map<string, DurableSnapshot>
  private retaining: Promise<void> | undefined
  private retainAgain = false
  private closing = false
  private trimQueued = false
  private readonly log: Log = {
    lastSeq: () => this.visibleSeq,
    firstSeq: () => this.trimmedTo,
    message: (seq) => this.messages.get(seq),
    settled: () => this.trimSoon(),
  }

  constructor(
    readonly spec: StreamSpec,
    private readonly disk?: StreamDisk,
    restored?: RestoredStream,
  ) {
    this.restoredDurables = restored?.durables ?? new Map()
    if (!restored) return
    this.seq = restored.lastSeq
    this.visibleSeq = restored.lastSeq
    this.trimmedTo = (restored.messages[0]?.[0] ?? restored.lastSeq + 1) - 1
    const windowStart = Date.now() - spec.duplicateWindowMs
    for (const [seq, message] of restored.messages) {
      this.messages.set(seq, message)
      if (message.at > windowStart) this.recentIds.set(message.msgId, { seq, at: message.at, stored: undefined })
    }
    for (const name of this.restoredDurables.keys()) this.durable(name, '>', 30_000)
  }

  covers(subject: string): boolean {
    return this.spec.subjects.some((pattern) => subjectMatches(pattern, subject))
  }

  async append(subject: string, data: Uint8Array, msgId: string): Promise<PublishAck> {
    const now = Date.now()
    this.forgetIdsBefore(now - this.spec.duplicateWindowMs)
    const seen = this.recentIds.get(msgId)
    if (seen) {
      // A repeat of a publish still being written is only a duplicate once that write held.
      await seen.stored
      return { duplicate: true, seq: seen.seq }
    }
    const seq = ++this.seq
    const message = { subject, data: data.slice(), msgId, at: now }
    const stored = this.disk?.write(seq, message)
    this.recentIds.set(msgId, { seq, at: now, stored })
    if (stored) {
      try {
        await stored
      } catch (error) {
        this.recentIds.delete(msgId)
        throw error
      }
    }
    this.messages.set(seq, message)
    this.visibleSeq = Math.max(this.visibleSeq, seq)
    for (const durable of this.durables.values()) durable.dispatch()
    if (this.disk) this.retainSoon()
    return { duplicate: false, seq }
  }

  /** The durable of that name, created on first use; a later call updates its filter and ack wait. */
  durable(name: string, filterSubject: string, ackWaitMs: number): Durable {
    let durable = this.durables.get(name)
    if (!durable) {
      const disk = this.disk
      const save = disk ? (snapshot: DurableSnapshot) => disk.saveDurable(name, snapshot) : undefined
      durable = new Durable(this.log, this.trimmedTo, save, this.restoredDurables.get(name))
      this.durables.set(name, durable)
    }
    durable.configure(filterSubject, ackWaitMs)
    return durable
  }

  /** See Bus.backlog. */
  backlog(name: string): number {
    return this.durables.get(name)?.backlog() ?? 0
  }

  async close(): Promise<void> {
    this.closing = true
    for (const durable of this.durables.values()) durable.close()
    await Promise.all([...this.durables.values()].map((durable) => durable.saved()))
    await this.retaining
    await this.disk?.close()
  }

  // Insertion order is publish order, so expired ids are always at the front.
  private forgetIdsBefore(cutoff: number): void {
    for (const [id, { at }] of this.recentIds) {
      if (at > cutoff) return
      this.recentIds.delete(id)
    }
  }

  /**
   * A batch's acks arrive together, and a trim scans every pending delivery of every durable: one
   * trim after them all, not one per ack (which made acking a batch quadratic in its size).
   */
  private trimSoon(): void {
    if (this.trimQueued) return
    this.trimQueued = true
    queueMicrotask(() => {
      this.trimQueued = false
      this.trim()
    })
  }

  private trim(): void {
    let floor = Number.POSITIVE_INFINITY
    for (const durable of this.durables.values()) floor = Math.min(floor, durable.ackFloor())
    const keepFrom = Date.now() - settledRetentionMs
    while (this.trimmedTo < Math.min(floor, this.visibleSeq)) {
      const oldest = this.messages.get(this.trimmedTo + 1)
      if (oldest && oldest.at > keepFrom) break
      this.messages.delete(++this.trimmedTo)
    }
    if (this.disk) this.retainSoon()
  }

  /**
   * Lets the disk free what is settled and apply its limits; one pass at a time, never in a
   * publish's path. A request while a pass runs is remembered, so the newest state gets a pass too.
   */
  private retainSoon(): void {
    const disk = this.disk
    if (!disk || this.closing) return
    if (this.retaining) {
      this.retainAgain = true
      return
    }
    this.retainAgain = false
    this.retaining = (async () => {
      const gone = await disk.retain(this.trimmedTo, Date.now())
      // Retention cut messages some durable had not settled: like JetStream, they are gone.
      while (this.trimmedTo < Math.min(gone, this.visibleSeq)) this.messages.delete(++this.trimmedTo)
    })()
      .catch(() => {
        // A failed delete leaves files behind; the next pass tries again.
      })
      .finally(() => {
        this.retaining = undefined
        if (this.retainAgain) this.retainSoon()
      })
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

  private saving: Promise<void> | undefined
  private nextSave: Promise<void> | undefined
  private closed = false

  constructor(
    private readonly log: Log,
    /** Every sequence up to here has been considered for a first delivery. */
    private cursor: number,
    private readonly save?: (snapshot: DurableSnapshot) => Promise<void>,
    restored?: DurableSnapshot,
  ) {
    if (!restored) return
    this.cursor = Math.max(restored.cursor, cursor)
    // Delivered before the restart and never acked: due again at once, counted as redeliveries.
    for (const [seq, deliveries] of restored.pending) {
      this.pending.set(seq, { deliveries, inFlight: false })
      this.due.push(seq)
    }
    this.due.sort((a, b) => a - b)
  }

  /**
   * Resolves once the position as it is now is saved (at once without a disk). Callers arriving
   * while a save runs share the next one, so a batch of acks costs one or two writes.
   */
  saved(): Promise<void> {
    const save = this.save
    if (!save) return Promise.resolve()
    this.nextSave ??= (async () => {
      await this.saving?.catch(() => {})
      this.nextSave = undefined
      const snapshot: DurableSnapshot = {
        cursor: this.cursor,
        pending: [...this.pending].map(([seq, delivery]) => [seq, delivery.deliveries]),
      }
      this.saving = save(snapshot)
      try {
        await this.saving
      } finally {
        this.saving = undefined
      }
    })()
    return this.nextSave
  }

  configure(filterSubject: string, ackWaitMs: number): void {
    this.filterSubject = filterSubject
    this.ackWaitMs = ackWaitMs
  }

  /** Messages past the cursor that match the filter, and those delivered but not settled. */
  backlog(): number {
    let waiting = 0
    for (let seq = Math.max(this.cursor, this.log.firstSeq()) + 1; seq <= this.log.lastSeq(); seq++) {
      const message = this.log.message(seq)
      if (message && subjectMatches(this.filterSubject, message.subject)) waiting++
    }
    return waiting + this.pending.size
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
      let finished = false
      const finish = () => {
        if (finished) return
        finished = true
        clearTimeout(timer)
        signal.removeEventListener('abort', finish)
        this.pullers.delete(puller)
        if (batch.length === 0 || !this.save) return resolve(batch)
        // The deliveries are on disk before the handler sees them, so a crash counts them as redeliveries.
        this.saved().then(
          () => resolve(batch),
          () => {
            // The disk refused the position: hand nothing out, try again in a moment.
            for (const message of batch) void message.nak(1000)
            resolve([])
          },
        )
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

  /** Stops the timers; the position (pending deliveries included) stays as last saved. */
  close(): void {
    for (const delivery of this.pending.values()) clearTimeout(delivery.timer)
    this.closed = true
  }

  private nextSeq(): number | undefined {
    if (this.closed) return undefined
    for (let seq = this.due.shift(); seq !== undefined; seq = this.due.shift()) {
      // An ack from an earlier delivery may have settled it while it waited.
      const delivery = this.pending.get(seq)
      if (!delivery || delivery.inFlight) continue
      if (this.log.message(seq)) return seq
      // Retention cut it before it was acked.
      this.pending.delete(seq)
    }
    this.cursor = Math.max(this.cursor, this.log.firstSeq())
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
      ack: () => this.settle(seq),
      term: () => this.settle(seq),
      nak: async (delayMs) => this.requeue(seq, count, delayMs),
      working: async () => this.extend(seq, count),
    }
  }

  private async settle(seq: number): Promise<void> {
    const delivery = this.pending.get(seq)
    if (!delivery) return
    clearTimeout(delivery.timer)
    this.pending.delete(seq)
    this.log.settled()
    await this.saved()
  }

  /** Restarts the ack wait of delivery `count` of `seq`, as JetStream's in-progress ack does. */
  private extend(seq: number, count: number): void {
    const delivery = this.pending.get(seq)
    if (!delivery?.inFlight || delivery.deliveries !== count) return
    clearTimeout(delivery.timer)
    delivery.timer = setTimeout(() => this.requeue(seq, count), this.ackWaitMs)
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
