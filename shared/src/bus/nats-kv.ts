import type { JetStreamClient } from '@nats-io/jetstream'
import { Kvm, type KvEntry as NatsKvEntry } from '@nats-io/kv'
import type { KvBucket, KvEntry, Stoppable } from './types.ts'

function toEntry(entry: NatsKvEntry): KvEntry {
  const put = entry.operation === 'PUT'
  return { key: entry.key, value: put ? entry.value : null, revision: entry.revision, operation: put ? 'PUT' : 'DEL' }
}

/** Opens the bucket, creating it (history 1) when missing, with `replicas` copies. */
export async function openNatsKv(
  js: JetStreamClient,
  bucket: string,
  replicas: number,
  track: (watch: Stoppable) => () => void,
) {
  const kv = await new Kvm(js).create(bucket, { history: 1, replicas })
  // `create` opens a bucket that exists as it is: one made before the cluster grew keeps its count otherwise.
  const status = await kv.status()
  if (status.replicas < replicas) {
    const jsm = await js.jetstreamManager()
    await jsm.streams.update(status.streamInfo.config.name, { num_replicas: replicas })
  }
  const natsKv: KvBucket = {
    put: (key, value) => kv.put(key, value),
    get: async (key) => {
      const entry = await kv.get(key)
      return entry?.operation === 'PUT' ? toEntry(entry) : null
    },
    delete: (key) => kv.delete(key),
    keys: async () => {
      const keys: string[] = []
      for await (const key of await kv.keys()) keys.push(key)
      return keys
    },
    watch: async (onEntry, options = {}) => {
      const entries = await kv.watch()
      // nats.js marks no end of the initial values: an empty bucket has none, otherwise the
      // last of them is the first entry with nothing pending behind it.
      let caughtUp = false
      const catchUp = () => {
        if (caughtUp) return
        caughtUp = true
        options.onCaughtUp?.()
      }
      if ((await kv.status()).values === 0) setImmediate(catchUp)
      const loop = (async () => {
        for await (const entry of entries) {
          onEntry(toEntry(entry))
          if (entry.delta === 0) catchUp()
        }
      })()
      const watch: Stoppable = {
        stop: async () => {
          untrack()
          entries.stop()
          await loop
        },
      }
      const untrack = track(watch)
      return watch
    },
  }
  return natsKv
}
