/** Bounds how many checks run at once; waiters are served in arrival order. */
export class Limiter {
  private active = 0
  private readonly waiting: Array<() => void> = []

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve))
    this.active += 1
    try {
      return await work()
    } finally {
      this.active -= 1
      this.waiting.shift()?.()
    }
  }

  get inFlight(): number {
    return this.active
  }
}

interface TenantQueue {
  active: number
  waiting: Array<() => void>
}

/**
 * Bounds how many checks run at once and splits that bound between tenants (organizations):
 * a tenant may hold at most `floor(limit / tenants)` slots (at least one), where `tenants` is
 * how many have monitors scheduled, busy or not. A tenant whose targets hang therefore fills
 * only its own share, and a quiet tenant's next check finds a slot free. Freed slots go round
 * robin to the tenants waiting, so a tenant with many checks queued cannot starve the others
 * when there are more tenants than slots.
 */
export class FairLimiter {
  private active = 0
  private readonly queues = new Map<string, TenantQueue>()

  constructor(
    private readonly limit: number,
    private readonly tenants: () => number,
  ) {}

  /** The most slots one tenant may hold now. */
  share(): number {
    return Math.max(1, Math.floor(this.limit / Math.max(1, this.tenants())))
  }

  async run<T>(tenant: string, work: () => Promise<T>): Promise<T> {
    const queue = this.queueOf(tenant)
    if (this.active >= this.limit || queue.active >= this.share() || queue.waiting.length > 0) {
      await new Promise<void>((resolve) => queue.waiting.push(resolve))
    } else {
      this.take(queue)
    }
    try {
      return await work()
    } finally {
      this.active -= 1
      queue.active -= 1
      if (queue.active === 0 && queue.waiting.length === 0) this.queues.delete(tenant)
      this.pump()
    }
  }

  get inFlight(): number {
    return this.active
  }

  /** Slots held per tenant, for tests and diagnostics. */
  inFlightOf(tenant: string): number {
    return this.queues.get(tenant)?.active ?? 0
  }

  private queueOf(tenant: string): TenantQueue {
    let queue = this.queues.get(tenant)
    if (!queue) {
      queue = { active: 0, waiting: [] }
      this.queues.set(tenant, queue)
    }
    return queue
  }

  private take(queue: TenantQueue): void {
    this.active += 1
    queue.active += 1
  }

  /**
   * Hands free slots to waiting tenants under their share, one at a time. A tenant served moves
   * to the end of the map, so the map's order is the round robin.
   */
  private pump(): void {
    const share = this.share()
    while (this.active < this.limit) {
      const next = [...this.queues].find(([, queue]) => queue.waiting.length > 0 && queue.active < share)
      if (!next) return
      const [tenant, queue] = next
      this.take(queue)
      this.queues.delete(tenant)
      this.queues.set(tenant, queue)
      queue.waiting.shift()!()
    }
  }
}
