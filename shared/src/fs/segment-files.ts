import { type FileHandle, mkdir, open, readdir, readFile, rm, truncate } from 'node:fs/promises'
import { join } from 'node:path'

/** One file of the log; segments are numbered upward and only the last one takes appends. */
export interface Segment {
  seq: number
  /** Complete lines in the file. */
  count: number
  bytes: number
}

export interface SegmentFilesOptions {
  dir: string
  /** Size at which the tail segment is closed and a new one started. */
  segmentBytes: number
  /**
   * `always`: an append resolves after fsync, so it survives a power cut. `none`: after the write
   * reached the kernel, which survives a killed process but not a crashed machine.
   */
  fsync: 'always' | 'none'
  /** Segments numbered below this one were consumed before a crash: they are deleted on open. */
  dropBefore?: number
  /** Number of the first segment when the directory is empty. */
  firstSeq?: number
}

const SEGMENT = /^(\d{12})\.jsonl$/
const segmentName = (seq: number) => `${String(seq).padStart(12, '0')}.jsonl`

/**
 * Append-only JSON-lines segment files: the storage under the probe's outbox and the embedded
 * bus's streams. Appends never interleave; a torn last line left by a crash mid-append is cut
 * off on open, so what a reader gets back is exactly the lines whose append resolved.
 */
export class SegmentFiles {
  private readonly list: Segment[] = []
  private tailHandle: { seq: number; file: FileHandle } | undefined
  private nextSeq: number

  private constructor(private readonly options: SegmentFilesOptions) {
    this.nextSeq = options.firstSeq ?? 1
  }

  static async open(options: SegmentFilesOptions): Promise<SegmentFiles> {
    const files = new SegmentFiles(options)
    await files.load()
    return files
  }

  get segments(): readonly Segment[] {
    return this.list
  }

  get bytes(): number {
    return this.list.reduce((sum, segment) => sum + segment.bytes, 0)
  }

  /** The number the next new segment will get (also after every segment was removed). */
  get upcomingSeq(): number {
    return this.nextSeq
  }

  /** Appends complete lines (each ending in a newline) to the tail, starting a new segment when it is full. */
  async append(lines: Buffer, count: number): Promise<Segment> {
    let tail = this.list.at(-1)
    if (!tail || (tail.bytes > 0 && tail.bytes + lines.length > this.options.segmentBytes)) {
      tail = { seq: this.nextSeq++, count: 0, bytes: 0 }
      this.list.push(tail)
    }
    const file = await this.handle(tail.seq)
    await file.write(lines)
    if (this.options.fsync === 'always') await file.datasync()
    tail.count += count
    tail.bytes += lines.length
    return tail
  }

  /** The complete lines of one segment. */
  async read(seq: number): Promise<string[]> {
    const segment = this.list.find((candidate) => candidate.seq === seq)
    if (!segment) return []
    const text = await readFile(join(this.options.dir, segmentName(seq)), 'utf8')
    return text.split('\n').slice(0, segment.count)
  }

  /** Deletes the oldest segment; returns it. */
  async removeHead(): Promise<Segment | undefined> {
    const head = this.list.shift()
    if (!head) return undefined
    if (this.tailHandle?.seq === head.seq) await this.closeTail()
    await rm(join(this.options.dir, segmentName(head.seq)), { force: true })
    return head
  }

  async close(): Promise<void> {
    await this.closeTail()
  }

  private async handle(seq: number): Promise<FileHandle> {
    if (this.tailHandle?.seq === seq) return this.tailHandle.file
    await this.closeTail()
    const file = await open(join(this.options.dir, segmentName(seq)), 'a')
    this.tailHandle = { seq, file }
    return file
  }

  private async closeTail(): Promise<void> {
    const tail = this.tailHandle
    this.tailHandle = undefined
    await tail?.file.close()
  }

  private async load(): Promise<void> {
    const dir = this.options.dir
    await mkdir(dir, { recursive: true })
    const seqs = (await readdir(dir))
      .map((name) => SEGMENT.exec(name)?.[1])
      .filter((seq): seq is string => seq !== undefined)
      .map(Number)
      .sort((a, b) => a - b)
    for (const seq of seqs) {
      const path = join(dir, segmentName(seq))
      if (seq < (this.options.dropBefore ?? 0)) {
        await rm(path, { force: true })
        continue
      }
      const raw = await readFile(path)
      const complete = raw.lastIndexOf(0x0a) + 1
      if (complete < raw.length) await truncate(path, complete)
      let count = 0
      for (let index = 0; index < complete; index++) if (raw[index] === 0x0a) count++
      this.list.push({ seq, count, bytes: complete })
    }
    const last = this.list.at(-1)
    this.nextSeq = Math.max(this.nextSeq, this.options.dropBefore ?? 0, last ? last.seq + 1 : 0)
  }
}
