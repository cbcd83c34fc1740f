import type { Bus, Logger } from '@guard/shared'
import type { Outbox, OutboxEntry } from './outbox.ts'

export interface PublisherOptions {
  bus: Bus
  outbox: Outbox
  log: Logger
  /** Pause between replay attempts while the bus is away or refusing. */
  retryMs?: number
  onPublished?: (entry: OutboxEntry, replayed: boolean) => void
}

/**
 * Sends results to the durable stream, and to the outbox whenever that fails or the outbox
 * already holds older results: a result never overtakes an earlier one, so each monitor's
 * results arrive in order. A background loop replays the outbox once the bus is back.
 */
export class ResultPublisher {
  private replaying: Promise<void> | undefined
  private wake: (() => void) | undefined
  private stopped = false
  private readonly retryMs: number

  constructor(private readonly options: PublisherOptions) {
    this.retryMs = options.retryMs ?? 500
    if (options.outbox.depth > 0) this.startReplay()
  }

  async deliver(entry: OutboxEntry): Promise<void> {
    const { bus, outbox } = this.options
    if (outbox.depth === 0 && !this.replaying && bus.isConnected()) {
      try {
        await bus.publish(entry.subject, entry.data, { msgId: entry.id })
        this.options.onPublished?.(entry, false)
        return
      } catch (error) {
        this.options.log.debug({ err: error, id: entry.id }, 'publish failed, keeping the result in the outbox')
      }
    }
    await outbox.append(entry)
    this.startReplay()
  }

  /** Stops replaying; what is left stays on disk for the next start. */
  async close(): Promise<void> {
    this.stopped = true
    this.wake?.()
    await this.replaying
  }

  /** Resolves once the outbox is empty, or after `timeoutMs`; true when it emptied. */
  async flush(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs
    while (this.options.outbox.depth > 0 && Date.now() < deadline) {
      this.startReplay()
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return this.options.outbox.depth === 0
  }

  private startReplay(): void {
    if (this.replaying || this.stopped) return
    this.replaying = this.replay().finally(() => {
      this.replaying = undefined
      // An entry appended after the last check but before the loop ended must not wait for the next one.
      if (this.options.outbox.depth > 0 && !this.stopped) this.startReplay()
    })
  }

  private async replay(): Promise<void> {
    const { bus, outbox, log } = this.options
    while (!this.stopped && outbox.depth > 0) {
      if (!bus.isConnected()) {
        await this.pause()
        continue
      }
      try {
        await outbox.drain(async (entry) => {
          if (this.stopped) throw new Error('publisher closed')
          await bus.publish(entry.subject, entry.data, { msgId: entry.id })
          this.options.onPublished?.(entry, true)
        })
      } catch (error) {
        if (!this.stopped) log.debug({ err: error }, 'outbox replay paused')
        await this.pause()
      }
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.retryMs)
      function done() {
        clearTimeout(timer)
        resolve()
      }
      this.wake = done
    })
  }
}
