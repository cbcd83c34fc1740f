import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { decryptSecret, encryptSecret, httpAuth, type MonitorConfig, monitorConfigV1 } from '@guard/shared'
import { z } from 'zod'

/**
 * The monitors without their credentials, and the credentials apart, each sealed (AES-256-GCM)
 * under the probe's state key, as the collector seals them in PostgreSQL.
 */
const cacheFile = z.object({
  v: z.literal(1),
  monitors: z.array(monitorConfigV1),
  sealedAuth: z.record(z.string(), z.string()).default({}),
})

/** A monitor's credentials as they go to disk: sealed, and away from the monitor. */
function seal(monitors: MonitorConfig[], key: Buffer): z.input<typeof cacheFile> {
  const sealedAuth: Record<string, string> = {}
  const bare = monitors.map((monitor) => {
    if (monitor.target.kind !== 'http' || !monitor.target.auth) return monitor
    const { auth, ...target } = monitor.target
    sealedAuth[monitor.id] = encryptSecret(key, JSON.stringify(auth))
    return { ...monitor, target }
  })
  return { v: 1, monitors: bare, sealedAuth }
}

/** The monitors with their credentials back; throws when the key does not open them. */
function open(file: z.output<typeof cacheFile>, key: Buffer): MonitorConfig[] {
  return file.monitors.map((monitor) => {
    const sealed = file.sealedAuth[monitor.id]
    if (!sealed || monitor.target.kind !== 'http') return monitor
    const auth = httpAuth.parse(JSON.parse(decryptSecret(key, sealed)))
    return { ...monitor, target: { ...monitor.target, auth } }
  })
}

/**
 * The last known schedule on disk, so a probe restarted while NATS is away keeps checking (and
 * spooling to its outbox) instead of idling until the monitors bucket is reachable again. Readable
 * by the probe's user only, credentials sealed under `key`.
 */
export class MonitorCache {
  private pending: NodeJS.Timeout | undefined
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly path: string,
    private readonly key: Buffer,
  ) {}

  async load(): Promise<MonitorConfig[]> {
    try {
      return open(cacheFile.parse(JSON.parse(await readFile(this.path, 'utf8'))), this.key)
    } catch {
      // Missing, unreadable or sealed under another key: the bucket is the source of truth and
      // will fill the schedule.
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
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 })
    const temporary = `${this.path}.tmp`
    await writeFile(temporary, JSON.stringify(seal(monitors, this.key)), { mode: 0o600 })
    await rename(temporary, this.path)
  }
}
