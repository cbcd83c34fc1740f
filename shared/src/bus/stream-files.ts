import { mkdir, open, readdir, readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { SegmentFiles } from '../fs/segment-files.ts'
import type { DurableSnapshot, RestoredStream, Stored, StreamDisk } from './in-process-stream.ts'
import type { StreamSpec } from './types.ts'

export interface StreamFilesOptions {
  /** `always`: a publish resolves after fsync (survives a power cut); `none`: once the kernel has it (survives a killed process). */
  fsync: 'always' | 'none'
  /** Oldest messages go first once a stream's files pass this size, settled or not. */
  maxBytes: number
  /** Messages older than this go, settled or not. */
  maxAgeMs: number
  segmentBytes?: number
}

interface Line {
  seq: number
  subject: string
  msgId: string
  at: number
  /** Base64: payloads are bytes. */
  data: string
}

interface SegmentRange {
  last: number
  lastAt: number
}

interface Waiting {
  line: Buffer
  seq: number
  at: number
  resolve(): void
  reject(error: unknown): void
}

const parseLine = (text: string): Line | undefined => {
  try {
    const line = JSON.parse(text) as Line
    return Number.isInteger(line.seq) && typeof line.data === 'string' ? line : undefined
  } catch {
    return undefined
  }
}

/**
 * A stream of the embedded bus on disk: messages in the shared segment files (group commit:
 * publishes waiting together share one write and one fsync), each durable's position in a small
 * file replaced atomically.
 */
export class StreamFiles implements StreamDisk {
  private readonly ranges = new Map<number, SegmentRange>()
  private queue: Waiting[] = []
  private flushing: Promise<void> | undefined
  private lock: Promise<unknown> = Promise.resolve()

  private constructor(
    private readonly dir: string,
    private readonly files: SegmentFiles,
    private readonly options: StreamFilesOptions,
  ) {}

  static async open(
    dir: string,
    spec: StreamSpec,
    options: StreamFilesOptions,
  ): Promise<{ disk: StreamFiles; restored: RestoredStream }> {
    const root = join(dir, spec.name)
    await mkdir(join(root, 'consumers'), { recursive: true })
    const files = await SegmentFiles.open({
      dir: join(root, 'segments'),
      fsync: options.fsync,
      segmentBytes: options.segmentBytes ?? Math.max(64 * 1024, Math.min(8 * 1024 * 1024, options.maxBytes / 16)),
    })
    const disk = new StreamFiles(root, files, options)
    const messages: Array<[number, Stored]> = []
    let lastSeq = 0
    for (const segment of files.segments) {
      const range: SegmentRange = { last: 0, lastAt: 0 }
      for (const text of await files.read(segment.seq)) {
        const line = parseLine(text)
        if (!line) continue
        range.last = Math.max(range.last, line.seq)
        range.lastAt = Math.max(range.lastAt, line.at)
        lastSeq = Math.max(lastSeq, line.seq)
        messages.push([
          line.seq,
          { subject: line.subject, msgId: line.msgId, at: line.at, data: Buffer.from(line.data, 'base64') },
        ])
      }
      disk.ranges.set(segment.seq, range)
    }
    messages.sort((a, b) => a[0] - b[0])
    const durables = new Map<string, DurableSnapshot>()
    for (const name of await readdir(join(root, 'consumers'))) {
      if (!name.endsWith('.json')) continue
      try {
        const snapshot = JSON.parse(await readFile(join(root, 'consumers', name), 'utf8')) as DurableSnapshot
        if (Number.isInteger(snapshot.cursor) && Array.isArray(snapshot.pending)) {
          durables.set(decodeURIComponent(name.slice(0, -'.json'.length)), snapshot)
        }
      } catch {
        // A position file is replaced by rename, so it is whole or absent; anything else is not ours.
      }
    }
    return { disk, restored: { messages, lastSeq, durables } }
  }

  write(seq: number, message: Stored): Promise<void> {
    const line: Line = {
      seq,
      subject: message.subject,
      msgId: message.msgId,
      at: message.at,
      data: Buffer.from(message.data).toString('base64'),
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ line: Buffer.from(`${JSON.stringify(line)}\n`), seq, at: message.at, resolve, reject })
      this.flushing ??= this.flush()
    })
  }

  async saveDurable(name: string, snapshot: DurableSnapshot): Promise<void> {
    const path = join(this.dir, 'consumers', `${encodeURIComponent(name)}.json`)
    const temporary = `${path}.tmp`
    const file = await open(temporary, 'w')
    try {
      await file.writeFile(JSON.stringify(snapshot))
      if (this.options.fsync === 'always') await file.datasync()
    } finally {
      await file.close()
    }
    await rename(temporary, path)
  }

  retain(settledThrough: number, now: number): Promise<number> {
    return this.exclusive(async () => {
      let gone = 0
      // The last segment stays: it carries the highest sequence across a restart.
      while (this.files.segments.length > 1) {
        const head = this.files.segments[0]
        const range = head && this.ranges.get(head.seq)
        if (!head || !range) break
        const settled = range.last <= settledThrough
        const tooBig = this.files.bytes > this.options.maxBytes
        const tooOld = now - range.lastAt > this.options.maxAgeMs
        if (!settled && !tooBig && !tooOld) break
        await this.files.removeHead()
        this.ranges.delete(head.seq)
        if (!settled) gone = Math.max(gone, range.last)
      }
      return gone
    })
  }

  async close(): Promise<void> {
    await this.flushing
    await this.exclusive(() => this.files.close())
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const waiting = this.queue
      this.queue = []
      try {
        const segment = await this.exclusive(() =>
          this.files.append(Buffer.concat(waiting.map((entry) => entry.line)), waiting.length),
        )
        const range = this.ranges.get(segment.seq) ?? { last: 0, lastAt: 0 }
        for (const entry of waiting) {
          range.last = Math.max(range.last, entry.seq)
          range.lastAt = Math.max(range.lastAt, entry.at)
        }
        this.ranges.set(segment.seq, range)
        for (const entry of waiting) entry.resolve()
      } catch (error) {
        for (const entry of waiting) entry.reject(error)
      }
    }
    this.flushing = undefined
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work, work)
    this.lock = run.catch(() => {})
    return run
  }
}
