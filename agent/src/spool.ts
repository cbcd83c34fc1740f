import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { promisify } from 'node:util'
import { createGunzip, gzip } from 'node:zlib'
import type { AgentHeartbeat } from '@guard/shared'

const compress = promisify(gzip)

/** Whether `body` is whole gzip (its checksum and length hold), inflated chunk by chunk and let go. */
async function isWholeGzip(body: Buffer): Promise<boolean> {
  try {
    await pipeline(Readable.from([body]), createGunzip(), new Writable({ write: (_chunk, _encoding, done) => done() }))
    return true
  } catch {
    return false
  }
}

export interface SpoolLimits {
  maxBytes: number
  maxAgeMs: number
}

interface Entry {
  name: string
  bytes: number
  time: number
}

const NAME = /^(\d{15})-(\d{6})\.json\.gz$/

/**
 * Heartbeats waiting for the collector, one file each, oldest first. Every heartbeat goes through
 * the spool, so a crash or an outage loses none; past the size or age limit the oldest are
 * dropped and counted. Files are written to a temporary name and renamed, so a crash mid-write
 * leaves no half heartbeat. Each is stored as the gzip body POST /agent sends: compressed once,
 * sent (and resent through an outage) as it is, never parsed again in the agent, so an
 * inventory's few thousand objects live only while it is collected.
 */
export class Spool {
  private entries: Entry[] = []
  private sequence = 0
  /** Heartbeats dropped for the limits (or unreadable) since the agent started. */
  dropped = 0

  private constructor(
    private readonly dir: string,
    private readonly limits: SpoolLimits,
  ) {}

  static async open(dir: string, limits: SpoolLimits): Promise<Spool> {
    await mkdir(dir, { recursive: true, mode: 0o700 })
    const spool = new Spool(dir, limits)
    for (const name of (await readdir(dir)).sort()) {
      const match = name.match(NAME)
      if (!match) {
        if (name.endsWith('.tmp')) await unlink(join(dir, name)).catch(() => {})
        continue
      }
      const { size } = await stat(join(dir, name))
      spool.entries.push({ name, bytes: size, time: Number(match[1]) })
      spool.sequence = Math.max(spool.sequence, Number(match[2]) + 1)
    }
    return spool
  }

  get size(): number {
    return this.entries.length
  }

  get bytes(): number {
    return this.entries.reduce((sum, entry) => sum + entry.bytes, 0)
  }

  async add(heartbeat: AgentHeartbeat, now = Date.now()): Promise<void> {
    const time = heartbeat.timestamp ? Date.parse(heartbeat.timestamp) : now
    const name = `${String(time).padStart(15, '0')}-${String(this.sequence++ % 1_000_000).padStart(6, '0')}.json.gz`
    const body = await compress(JSON.stringify(heartbeat))
    const path = join(this.dir, name)
    await writeFile(`${path}.tmp`, body, { mode: 0o600 })
    await rename(`${path}.tmp`, path)
    this.entries.push({ name, bytes: body.length, time })
    this.entries.sort((a, b) => (a.name < b.name ? -1 : 1))
    await this.enforce(now)
  }

  /**
   * The oldest waiting heartbeat as its gzip body, or undefined when the spool is empty. A file a
   * power cut left truncated or unreadable is dropped and counted.
   */
  async peek(now = Date.now()): Promise<{ name: string; body: Buffer } | undefined> {
    await this.enforce(now)
    while (this.entries[0]) {
      const entry = this.entries[0]
      const body = await readFile(join(this.dir, entry.name)).catch(() => undefined)
      if (body && (await isWholeGzip(body))) return { name: entry.name, body }
      this.dropped += 1
      await this.remove(entry.name)
    }
    return undefined
  }

  async remove(name: string): Promise<void> {
    this.entries = this.entries.filter((entry) => entry.name !== name)
    await unlink(join(this.dir, name)).catch(() => {})
  }

  /** Drops what is too old, then the oldest until the rest fits; the newest always stays. */
  private async enforce(now: number): Promise<void> {
    const tooOld = this.entries.filter((entry) => now - entry.time > this.limits.maxAgeMs)
    for (const entry of tooOld) {
      this.dropped += 1
      await this.remove(entry.name)
    }
    while (this.entries.length > 1 && this.bytes > this.limits.maxBytes) {
      this.dropped += 1
      await this.remove(this.entries[0]!.name)
    }
  }
}
