import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { type MonitorConfig, monitorConfigV1 } from '@guard/shared'
import { z } from 'zod'

const cacheFile = z.object({ v: z.literal(1), monitors: z.array(monitorConfigV1) })

/**
 * The last known schedule on disk, so a probe restarted while NATS is away keeps checking (and
 * spooling to its outbox) instead of idling until the monitors bucket is reachable again.
 */
export class MonitorCache {
  private pending: NodeJS.Timeout | undefined
  private writing: Promise<void> = Promise.resolve()

  constructor(private readonly path: string) {}

  async load(): Promise<MonitorConfig[]> {
    try {
      return cacheFile.parse(JSON.parse(await readFile(this.path, 'utf8'))).monitors
    } catch {
      // Missing or unreadable: the bucket is the source of truth and will fill the schedule.
      return []
    }
  }

  /** Writes soon, coalescing bursts of changes (a watch delivering a whole bucket) into one write. */
  saveSoon(monitors: () => MonitorConfig[]): void {
    if (this.pending) return
    this.pending = setTimeout(() => {
      this.pending = undefined
      this.writing = this.writing.then(() => this.write(monitors())).catch(() => {})
    }, 200)
    this.pending.unref()
  }

  async close(monitors: MonitorConfig[]): Promise<void> {
    clearTimeout(this.pending)
    this.pending = undefined
    await this.writing
    await this.write(monitors).catch(() => {})
  }

  private async write(monitors: MonitorConfig[]): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true })
    const temporary = `${this.path}.tmp`
    await writeFile(temporary, JSON.stringify({ v: 1, monitors }))
    await rename(temporary, this.path)
  }
}
