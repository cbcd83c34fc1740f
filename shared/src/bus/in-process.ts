import { join } from 'node:path'
import { handBatch } from './batch.ts'
import { errorMessage, noResponders, requestTimedOut, responderFailed } from './errors.ts'
import { MemoryKv } from './in-process-kv.ts'
import { MemoryStream } from './in-process-stream.ts'
import { StreamFiles, type StreamFilesOptions } from './stream-files.ts'
import { subjectMatches } from './subject.ts'
import type { Bus, Responder, StreamSpec } from './types.ts'

interface Subscriber {
  pattern: string
  onMessage(data: Uint8Array, subject: string): void
}

interface QueueResponder {
  pattern: string
  queue: string
  responder: Responder
}

export interface DurableInProcessBusOptions extends StreamFilesOptions {
  /** Directory of the streams' files; one process at a time. */
  dir: string
  streams: StreamSpec[]
}

/**
 * The bus of embedded mode with its streams on disk: a publish resolves once the message is
 * stored, and consumers resume from their acked position after a restart or a crash.
 */
export async function openDurableInProcessBus(options: DurableInProcessBusOptions): Promise<Bus> {
  const { dir, streams: specs, ...files } = options
  const opened = await Promise.all(
    specs.map(async (spec) => {
      const { disk, restored } = await StreamFiles.open(join(dir, 'streams'), spec, files)
      return new MemoryStream(spec, disk, restored)
    }),
  )
  return busOver(opened)
}

/** The bus of embedded mode: the NATS contract, kept in memory, for one process. */
export function createInProcessBus(options: { streams: StreamSpec[] }): Bus {
  return busOver(options.streams.map((spec) => new MemoryStream(spec)))
}

function busOver(opened: MemoryStream[]): Bus {
  const streams = new Map(opened.map((stream) => [stream.spec.name, stream]))
  const buckets = new Map<string, MemoryKv>()
  const subscribers = new Set<Subscriber>()
  const responders = new Set<QueueResponder>()
  const consumers = new Set<() => Promise<void>>()
  let closed = false

  const open = () => {
    if (closed) throw new Error('bus is closed')
  }

  // Like a network hop: receivers run later, never inside the sender's call.
  const fanOut = (subject: string, data: Uint8Array) => {
    for (const subscriber of subscribers) {
      if (subjectMatches(subscriber.pattern, subject)) {
        setImmediate(() => {
          if (subscribers.has(subscriber)) subscriber.onMessage(data.slice(), subject)
        })
      }
    }
  }

  const stoppable = (loop: Promise<void>, abort: AbortController) => {
    const stop = async () => {
      consumers.delete(stop)
      abort.abort()
      await loop
    }
    consumers.add(stop)
    return { stop }
  }

  return {
    async publish(subject, data, { msgId }) {
      open()
      const stream = [...streams.values()].find((candidate) => candidate.covers(subject))
      if (!stream) throw new Error(`no stream stores subject '${subject}'`)
      const ack = await stream.append(subject, data, msgId)
      // JetStream subjects are NATS subjects too: plain subscribers see stored messages.
      if (!ack.duplicate) fanOut(subject, data)
      return ack
    },

    async consume(options, handler) {
      open()
      const stream = streams.get(options.stream)
      if (!stream) throw new Error(`unknown stream '${options.stream}'`)
      const durable = stream.durable(options.durable, options.filterSubject, options.ackWaitMs)
      const abort = new AbortController()
      const loop = (async () => {
        while (!abort.signal.aborted) {
          const batch = await durable.pull(options.maxBatch, options.maxWaitMs, abort.signal)
          if (abort.signal.aborted) {
            await Promise.all(batch.map((message) => message.nak()))
          } else {
            await handBatch(batch, handler)
          }
        }
      })()
      return stoppable(loop, abort)
    },

    async backlog(name, durable) {
      open()
      return streams.get(name)?.backlog(durable) ?? 0
    },

    async emit(subject, data) {
      open()
      fanOut(subject, data)
    },

    async subscribe(pattern, onMessage) {
      open()
      const subscriber = { pattern, onMessage }
      subscribers.add(subscriber)
      return { stop: async () => void subscribers.delete(subscriber) }
    },

    async request(subject, data, { timeoutMs }) {
      open()
      const matching = [...responders].filter((candidate) => subjectMatches(candidate.pattern, subject))
      const listening = [...subscribers].some((subscriber) => subjectMatches(subscriber.pattern, subject))
      // NATS answers at once when nothing at all listens; a plain subscriber only lets it time out.
      if (matching.length === 0 && !listening) {
        await new Promise((resolve) => setImmediate(resolve))
        throw noResponders(subject)
      }
      fanOut(subject, data)
      return new Promise<Uint8Array>((resolve, reject) => {
        const timer = setTimeout(() => reject(requestTimedOut(subject, timeoutMs)), timeoutMs)
        const settle = (outcome: () => void) => {
          clearTimeout(timer)
          outcome()
        }
        for (const chosen of onePerQueue(matching)) {
          setImmediate(() => {
            Promise.resolve(data.slice())
              .then((copy) => chosen.responder(copy, subject))
              .then(
                (reply) => settle(() => resolve(reply)),
                (error: unknown) => settle(() => reject(responderFailed(subject, errorMessage(error)))),
              )
          })
        }
      })
    },

    async respond(pattern, queue, responder) {
      open()
      const entry = { pattern, queue, responder }
      responders.add(entry)
      return { stop: async () => void responders.delete(entry) }
    },

    async kv(bucket) {
      open()
      let kv = buckets.get(bucket)
      if (!kv) {
        if (!/^[-\w]+$/.test(bucket)) throw new Error(`invalid bucket name: ${bucket}`)
        kv = new MemoryKv()
        buckets.set(bucket, kv)
      }
      return kv
    },

    isConnected: () => !closed,

    async close() {
      if (closed) return
      closed = true
      await Promise.all([...consumers].map((stop) => stop()))
      await Promise.all([...streams.values()].map((stream) => stream.close()))
      for (const kv of buckets.values()) kv.close()
      subscribers.clear()
      responders.clear()
    },
  }
}

/** NATS gives a request to one member of each queue group, picked at random. */
function onePerQueue(candidates: QueueResponder[]): QueueResponder[] {
  const groups = new Map<string, QueueResponder[]>()
  for (const candidate of candidates) {
    groups.set(candidate.queue, [...(groups.get(candidate.queue) ?? []), candidate])
  }
  return [...groups.values()].map((members) => members[Math.floor(Math.random() * members.length)]!)
}
