import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SegmentFiles } from '@guard/shared'

/** One stored publish: the subject, the message id JetStream deduplicates on, and the payload. */
export interface OutboxEntry {
  id: string
  /** Entries with the same key (a monitor's id) are replayed strictly one after the other. */
  key: string
  subject: string
  data: Uint8Array
  /** Epoch milliseconds when the entry was stored; the age limit counts from here. */
  at: number
}

export interface OutboxOptions {
  dir: string
  maxBytes: number
  maxAgeMs: number
  /** Size at which a segment file is closed and a new one started; default maxBytes / 8, at most 1 MiB. */
  segmentBytes?: number
  now?: () => number
}

export interface OutboxDrops {
  /** Entries discarded to stay under maxBytes, oldest first. */
  full: number
  /** Entries older than maxAgeMs when their turn came. */
  expired: number
  /** Lines that could not be read back (a torn write before a crash). */
  corrupt: number
}

interface Cursor {
  /** The head segment's sequence number. */
  seq: number
  /** Lines of the head segment already delivered. */
  delivered: number
}

interface StoredLine {
  id: string
  key?: string
  subject: string
  at: number
  data: string
}

/** Publishes in flight at once during a replay, so a long backlog is not bound by one round trip per entry. */
const REPLAY_WINDOW = 64
const CURSOR_FILE = 'cursor.json'

/**
 * A bounded, ordered queue of publishes on disk, for the time the bus is away. Entries live in
 * append-only segment files (shared with the embedded bus's streams); a cursor file records how far the head segment was delivered, so a
 * restarted process resumes where it stopped and replays at most the one entry in flight (which
 * the message id makes harmless). Delivered segments are deleted; when the byte limit is reached
 * the oldest segment goes first, counted as dropped.
 */
export class Outbox {
  readonly drops: OutboxDrops = { full: 0, expired: 0, corrupt: 0 }
  private files!: SegmentFiles
  private cursor: Cursor = { seq: 1, delivered: 0 }
  private lock: Promise<unknown> = Promise.resolve()
  private readonly segmentBytes: number
  private readonly now: () => number

  private constructor(private readonly options: OutboxOptions) {
    this.segmentBytes = options.segmentBytes ?? Math.max(4096, Math.min(1024 * 1024, Math.floor(options.maxBytes / 8)))
    this.now = options.now ?? Date.now
  }

  /** Opens (or creates) the outbox in `dir`, picking up what an earlier process left there. */
  static async open(options: OutboxOptions): Promise<Outbox> {
    const outbox = new Outbox(options)
    await outbox.load()
    return outbox
  }

  /** Entries stored and not yet delivered. */
  get depth(): number {
    const segments = this.files.segments
    const total = segments.reduce((sum, segment) => sum + segment.count, 0)
    return total - (segments.length > 0 ? this.cursor.delivered : 0)
  }

  get bytes(): number {
    return this.files.bytes
  }

  /** Closes the open segment file; what is stored stays for the next open. */
  close(): Promise<void> {
    return this.exclusive(() => this.files.close())
  }

  get droppedTotal(): number {
    return this.drops.full + this.drops.expired + this.drops.corrupt
  }

  append(entry: OutboxEntry): Promise<void> {
    const line: StoredLine = {
      id: entry.id,
      key: entry.key,
      subject: entry.subject,
      at: entry.at,
      data: new TextDecoder().decode(entry.data),
    }
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`)
    return this.exclusive(async () => {
      if (bytes.length > this.options.maxBytes) {
        this.drops.full += 1
        return
      }
      while (this.bytes + bytes.length > this.options.maxBytes && this.files.segments.length > 0) await this.dropHead()
      await this.files.append(bytes, 1)
    })
  }

  /**
   * Hands stored entries to `publish` in the order they were stored, up to REPLAY_WINDOW at a
   * time but never two of one key at once, and advances past those that succeeded in a row.
   * Stops at the first rejection (that entry stays first in line) and rethrows it; entries after
   * it that did arrive are sent again later, which their message ids make harmless, and their
   * key's order holds because a window holds one entry per key.
   */
  async drain(publish: (entry: OutboxEntry) => Promise<void>): Promise<void> {
    for (;;) {
      const batch = await this.exclusive(() => this.readHead())
      if (!batch) return
      let settled = 0
      while (settled < batch.lines.length) {
        const window = this.window(batch.lines, settled)
        const outcomes = await Promise.allSettled(window.entries.map(({ entry }) => publish(entry)))
        const failed = outcomes.findIndex((outcome) => outcome.status === 'rejected')
        const reached = failed < 0 ? window.end : (window.entries[failed]?.offset ?? settled)
        for (const { offset, reason } of window.skipped) if (offset < reached) this.drops[reason] += 1
        settled = reached
        const stillHead = await this.exclusive(async () => {
          if (this.cursor.seq !== batch.seq) return false
          this.cursor.delivered = batch.from + settled
          await this.saveCursor()
          return true
        })
        const rejection = outcomes[failed]
        if (rejection?.status === 'rejected') throw rejection.reason
        // The byte limit dropped the segment under us: start again from the new head.
        if (!stillHead) break
      }
      await this.exclusive(() => this.retireHeadIfDelivered(batch.seq))
    }
  }

  /** The next entries to publish together from `start`, and the unreadable or expired lines among them. */
  private window(lines: string[], start: number) {
    const entries: Array<{ offset: number; entry: OutboxEntry }> = []
    const skipped: Array<{ offset: number; reason: 'expired' | 'corrupt' }> = []
    const keys = new Set<string>()
    let offset = start
    for (; offset < lines.length && entries.length < REPLAY_WINDOW; offset++) {
      const entry = this.parse(lines[offset] ?? '')
      if (!entry) skipped.push({ offset, reason: 'corrupt' })
      else if (this.now() - entry.at > this.options.maxAgeMs) skipped.push({ offset, reason: 'expired' })
      else if (keys.has(entry.key)) break
      else {
        keys.add(entry.key)
        entries.push({ offset, entry })
      }
    }
    return { entries, skipped, end: offset }
  }

  private parse(line: string): OutboxEntry | undefined {
    try {
      const stored = JSON.parse(line) as StoredLine
      return {
        id: stored.id,
        key: stored.key ?? stored.id,
        subject: stored.subject,
        at: stored.at,
        data: new TextEncoder().encode(stored.data),
      }
    } catch {
      return undefined
    }
  }

  private async readHead(): Promise<{ seq: number; from: number; lines: string[] } | undefined> {
    const head = this.files.segments[0]
    if (!head) return undefined
    const lines = (await this.files.read(head.seq)).slice(this.cursor.delivered)
    return { seq: head.seq, from: this.cursor.delivered, lines }
  }

  private async retireHeadIfDelivered(seq: number): Promise<void> {
    const head = this.files.segments[0]
    if (!head || head.seq !== seq || this.cursor.delivered < head.count) return
    await this.files.removeHead()
    this.cursor = { seq: this.files.segments[0]?.seq ?? this.files.upcomingSeq, delivered: 0 }
    await this.saveCursor()
  }

  private async dropHead(): Promise<void> {
    const head = await this.files.removeHead()
    if (!head) return
    this.drops.full += head.count - this.cursor.delivered
    this.cursor = { seq: this.files.segments[0]?.seq ?? this.files.upcomingSeq, delivered: 0 }
    await this.saveCursor()
  }

  private async saveCursor(): Promise<void> {
    const temporary = join(this.options.dir, `${CURSOR_FILE}.tmp`)
    await writeFile(temporary, JSON.stringify(this.cursor))
    await rename(temporary, join(this.options.dir, CURSOR_FILE))
  }

  private async load(): Promise<void> {
    const dir = this.options.dir
    await mkdir(dir, { recursive: true })
    try {
      const saved = JSON.parse(await readFile(join(dir, CURSOR_FILE), 'utf8')) as Cursor
      if (Number.isInteger(saved.seq) && Number.isInteger(saved.delivered)) this.cursor = saved
    } catch {
      // No cursor yet, or one torn by a crash: start from the first stored entry (replays dedupe by id).
    }
    // Segments before the cursor were delivered; a crash came between the cursor and the delete.
    this.files = await SegmentFiles.open({
      dir,
      segmentBytes: this.segmentBytes,
      fsync: 'none',
      dropBefore: this.cursor.seq,
      firstSeq: this.cursor.seq,
    })
    const head = this.files.segments[0]
    if (!head) this.cursor = { seq: this.cursor.seq, delivered: 0 }
    else if (head.seq !== this.cursor.seq) this.cursor = { seq: head.seq, delivered: 0 }
    else this.cursor.delivered = Math.min(this.cursor.delivered, head.count)
  }

  /** Serializes file changes: appends, cursor moves and deletions never interleave. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work, work)
    this.lock = run.catch(() => {})
    return run
  }
}
