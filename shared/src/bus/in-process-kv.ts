import type { KvBucket, KvEntry, KvWatchOptions, Stoppable } from './types.ts'

// The key rules of NATS KV, so a key that works embedded also works distributed.
const validKey = /^[-/=.\w]+$/

function checkKey(key: string): void {
  if (key.startsWith('.') || key.endsWith('.') || !validKey.test(key)) throw new Error(`invalid key: ${key}`)
}

interface Watcher {
  push(entry: KvEntry): void
  stop(): void
}

/**
 * A bucket with NATS KV semantics at history 1: revisions count across the bucket, and a
 * delete leaves a marker that watchers see (also in their initial values), as NATS does.
 */
export class MemoryKv implements KvBucket {
  private revision = 0
  private readonly latest = new Map<string, KvEntry>()
  private readonly watchers = new Set<Watcher>()

  async put(key: string, value: Uint8Array): Promise<number> {
    return this.write(key, value.slice(), 'PUT')
  }

  async get(key: string): Promise<KvEntry | null> {
    checkKey(key)
    const entry = this.latest.get(key)
    return entry?.operation === 'PUT' ? entry : null
  }

  async delete(key: string): Promise<void> {
    this.write(key, null, 'DEL')
  }

  async keys(): Promise<string[]> {
    return [...this.latest.values()].filter((entry) => entry.operation === 'PUT').map((entry) => entry.key)
  }

  async watch(onEntry: (entry: KvEntry) => void, options: KvWatchOptions = {}): Promise<Stoppable> {
    // The snapshot and live changes share one queue, drained later: order holds and nothing
    // is delivered inside this call or inside a put.
    const snapshot = [...this.latest.values()].sort((a, b) => a.revision - b.revision)
    const queue: Array<KvEntry | 'caught-up'> = [...snapshot, 'caught-up']
    let scheduled: NodeJS.Immediate | undefined
    const drain = () => {
      scheduled = undefined
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        if (item === 'caught-up') options.onCaughtUp?.()
        else onEntry(item)
      }
    }
    const watcher: Watcher = {
      push: (entry) => {
        queue.push(entry)
        scheduled ??= setImmediate(drain)
      },
      stop: () => {
        this.watchers.delete(watcher)
        clearImmediate(scheduled)
        queue.length = 0
      },
    }
    scheduled = setImmediate(drain)
    this.watchers.add(watcher)
    return { stop: async () => watcher.stop() }
  }

  close(): void {
    for (const watcher of this.watchers) watcher.stop()
  }

  private write(key: string, value: Uint8Array | null, operation: KvEntry['operation']): number {
    checkKey(key)
    const entry: KvEntry = { key, value, revision: ++this.revision, operation }
    this.latest.set(key, entry)
    for (const watcher of this.watchers) watcher.push(entry)
    return entry.revision
  }
}
