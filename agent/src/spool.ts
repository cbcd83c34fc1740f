import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentHeartbeat } from '@guard/shared'

export interface SpoolLimits {
  maxBytes: number
  maxAgeMs: number
}

interface Entry {
  name: string
  bytes: number
  time: number
}

const NAME = /^(\d{15})-(\d{6})\.json$/

/**
 * Heartbeats waiting for the collector, one file each, oldest first. Every heartbeat goes through
 * the spool, so a crash or an outage loses none; past the size or age limit the oldest are
 * dropped and counted. Files are written to a temporary name and renamed, so a crash mid-write
 * leaves no half heartbeat.
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
    const name = `${String(time).padStart(15, '0')}-${String(this.sequence++ % 1_000_000).padStart(6, '0')}.json`
    const data = JSON.stringify(heartbeat)
    const path = join(this.dir, name)
    await writeFile(`${path}.tmp`, data, { mode: 0o600 })
    await rename(`${path}.tmp`, path)
    this.entries.push({ name, bytes: Buffer.byteLength(data), time })
    this.entries.sort((a, b) => (a.name < b.name ? -1 : 1))
    await this.enforce(now)
  }

  /** The oldest waiting heartbeat, or undefined when the spool is empty. */
  async peek(now = Date.now()): Promise<{ name: string; heartbeat: AgentHeartbeat } | undefined> {
    await this.enforce(now)
    while (this.entries[0]) {
      const entry = this.entries[0]
      try {
        return { name: entry.name, heartbeat: JSON.parse(await readFile(join(this.dir, entry.name), 'utf8')) }
      } catch {
        this.dropped += 1
        await this.remove(entry.name)
      }
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
