import type { CollectorContext } from '../context.ts'

export interface WatchedConsumer {
  name: 'results' | 'devices'
  stream: string
  durable: string
  /** Messages the consumer settled so far (stored or dead-lettered): it advanced when this grows. */
  settled(): number
}

export interface IngestState {
  name: WatchedConsumer['name']
  status: 'ok' | 'stalled'
  /** Messages waiting for this consumer (not delivered yet, or delivered and not acked). */
  backlog: number
  /** Seconds since the consumer last settled a message. */
  idleSeconds: number
}

export interface IngestWatch {
  states(): Promise<IngestState[]>
  stop(): void
}

/** How often the consumers' counts are sampled: the precision of idleSeconds. */
const SAMPLE_MS = 1000

/**
 * Tells whether each ingest consumer still advances: stalled when it settled nothing for
 * `stallMs` while its stream holds messages for it, as a batch a store refuses forever would do.
 * A quiet stream is never stalled.
 */
export function createIngestWatch(ctx: CollectorContext, consumers: WatchedConsumer[], stallMs: number): IngestWatch {
  const seen = consumers.map((consumer) => ({ count: consumer.settled(), at: Date.now() }))
  const sample = () => {
    for (const [index, consumer] of consumers.entries()) {
      const count = consumer.settled()
      if (count !== seen[index]!.count) seen[index] = { count, at: Date.now() }
    }
  }
  const timer = setInterval(sample, SAMPLE_MS)
  timer.unref()
  return {
    async states() {
      sample()
      return Promise.all(
        consumers.map(async (consumer, index) => {
          const backlog = await ctx.bus.backlog(consumer.stream, consumer.durable).catch(() => 0)
          const idleMs = Date.now() - seen[index]!.at
          return {
            name: consumer.name,
            status: backlog > 0 && idleMs > stallMs ? ('stalled' as const) : ('ok' as const),
            backlog,
            idleSeconds: Math.floor(idleMs / 1000),
          }
        }),
      )
    },
    stop: () => clearInterval(timer),
  }
}
