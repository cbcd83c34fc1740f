import type { MonitorConfig } from '@guard/shared'
import { FairLimiter } from './limiter.ts'

interface Entry {
  monitor: MonitorConfig
  timer: NodeJS.Timeout | undefined
  running: Promise<void> | undefined
  plannedAt: number
}

export interface SchedulerOptions {
  concurrency: number
  run: (monitor: MonitorConfig) => Promise<void>
  onLag?: (lagMs: number, monitor: MonitorConfig) => void
  /** Injected in tests to make start offsets predictable. */
  random?: () => number
}

/**
 * What decides a check's outcome. Sealed credentials are compared by presence only: the collector
 * seals them afresh on every publish (its restart republishes every monitor), and a new
 * ciphertext of the same credentials is no edit worth an immediate check.
 */
function checkFingerprint(monitor: MonitorConfig): string {
  const target =
    'sealedAuth' in monitor.target
      ? { ...monitor.target, sealedAuth: Boolean(monitor.target.sealedAuth) }
      : monitor.target
  return JSON.stringify([target, monitor.intervalSeconds, monitor.timeoutSeconds])
}

/**
 * Runs each monitor on its own interval. The first scheduled run waits a random part of the
 * interval so monitors added together do not fire together; a run still going when the next is
 * due makes that next run skip rather than overlap. `concurrency` is shared fairly between the
 * organizations whose monitors are scheduled here (see FairLimiter).
 */
export class Scheduler {
  private readonly entries = new Map<string, Entry>()
  private readonly limiter: FairLimiter
  /** Scheduled monitors per organization: how many tenants share the concurrency. */
  private readonly perOrganization = new Map<string, number>()
  private readonly random: () => number
  private stopped = false

  constructor(private readonly options: SchedulerOptions) {
    this.limiter = new FairLimiter(options.concurrency, () => this.perOrganization.size)
    this.random = options.random ?? Math.random
  }

  /**
   * Schedules a monitor or takes its new config. With `checkNow`, a monitor that is new here or
   * whose check changed also runs at once, outside its cadence, so whoever just saved it sees a
   * result in seconds rather than up to an interval later; the caller leaves it off while
   * replaying known monitors (a restart), which must stay spread over the interval.
   */
  upsert(monitor: MonitorConfig, { checkNow = false }: { checkNow?: boolean } = {}): void {
    if (this.stopped) return
    const existing = this.entries.get(monitor.id)
    const changed = !existing || checkFingerprint(existing.monitor) !== checkFingerprint(monitor)
    const rescheduled = !existing || existing.monitor.intervalSeconds !== monitor.intervalSeconds
    if (existing) this.uncount(existing.monitor)
    this.count(monitor)
    // An edit keeps its entry, so a check still going is still seen and never overlapped.
    const entry: Entry = existing ?? { monitor, timer: undefined, running: undefined, plannedAt: 0 }
    entry.monitor = monitor
    this.entries.set(monitor.id, entry)
    // On the next turn, so a monitor added and removed in one batch of changes is never checked.
    if (checkNow && changed) setImmediate(() => this.start(entry))
    if (rescheduled) {
      clearTimeout(entry.timer)
      entry.plannedAt = Date.now() + Math.floor(this.random() * monitor.intervalSeconds * 1000)
      this.arm(entry)
    }
  }

  remove(id: string): void {
    const entry = this.entries.get(id)
    if (!entry) return
    clearTimeout(entry.timer)
    this.entries.delete(id)
    this.uncount(entry.monitor)
  }

  /** How many organizations have monitors here, and so split the concurrency. */
  get organizations(): number {
    return this.perOrganization.size
  }

  /** The monitors scheduled now, for the on-disk cache. */
  monitors(): MonitorConfig[] {
    return [...this.entries.values()].map((entry) => entry.monitor)
  }

  get size(): number {
    return this.entries.size
  }

  get inFlight(): number {
    return this.limiter.inFlight
  }

  /** Stops planning new runs and waits for the ones in flight. */
  async stop(): Promise<void> {
    this.stopped = true
    const running = [...this.entries.values()].map((entry) => {
      clearTimeout(entry.timer)
      return entry.running
    })
    this.entries.clear()
    this.perOrganization.clear()
    await Promise.allSettled(running)
  }

  private arm(entry: Entry): void {
    entry.timer = setTimeout(() => this.fire(entry), Math.max(0, entry.plannedAt - Date.now()))
  }

  private fire(entry: Entry): void {
    if (this.stopped || this.entries.get(entry.monitor.id) !== entry) return
    this.start(entry, entry.plannedAt)
    const intervalMs = entry.monitor.intervalSeconds * 1000
    entry.plannedAt += intervalMs
    // After a stall (a suspended laptop, a blocked loop) skip missed runs instead of bursting them.
    if (entry.plannedAt < Date.now()) entry.plannedAt = Date.now() + intervalMs
    this.arm(entry)
  }

  /** Runs the check unless one is going; `plannedAt` is the cadence's slot, whose lag is reported. */
  private start(entry: Entry, plannedAt?: number): void {
    if (entry.running) return
    entry.running = this.limiter
      .run(entry.monitor.organizationId, async () => {
        // Removed (or the scheduler stopped) while it waited for a slot: nobody wants this result.
        if (this.entries.get(entry.monitor.id) !== entry) return
        if (plannedAt !== undefined) this.options.onLag?.(Date.now() - plannedAt, entry.monitor)
        await this.options.run(entry.monitor)
      })
      .finally(() => {
        entry.running = undefined
      })
  }

  private count(monitor: MonitorConfig): void {
    const id = monitor.organizationId
    this.perOrganization.set(id, (this.perOrganization.get(id) ?? 0) + 1)
  }

  private uncount(monitor: MonitorConfig): void {
    const id = monitor.organizationId
    const left = (this.perOrganization.get(id) ?? 1) - 1
    if (left > 0) this.perOrganization.set(id, left)
    else this.perOrganization.delete(id)
  }
}
