/**
 * The process the bus crash test kills: publishes numbered messages on the durable in-process bus
 * and consumes them, printing `acked <n>` once a publish resolved and `delivered <n> <count>`
 * before acking a delivery. Stdout to a pipe is written synchronously, so a line printed is a
 * line the parent sees, however the process dies.
 */
import { openDurableInProcessBus } from '../bus/in-process.ts'

const dir = process.env.CRASH_DIR ?? ''
const from = Number(process.env.CRASH_FROM ?? '0')
const count = Number(process.env.CRASH_COUNT ?? '0')
const stream = { name: 'RESULTS', subjects: ['results.>'], duplicateWindowMs: 120_000 }
const bus = await openDurableInProcessBus({
  dir,
  streams: [stream],
  fsync: 'none',
  maxBytes: 64 * 1024 * 1024,
  maxAgeMs: 3600_000,
})
const write = (line: string) => process.stdout.write(`${line}\n`)

await bus.consume(
  { stream: 'RESULTS', durable: 'ingest', filterSubject: 'results.>', maxBatch: 20, maxWaitMs: 5, ackWaitMs: 30_000 },
  async (batch) => {
    for (const message of batch) write(`delivered ${new TextDecoder().decode(message.data)} ${message.deliveryCount}`)
    await Promise.all(batch.map((message) => message.ack()))
  },
)
write('ready')
// Several publishers at once, as a probe's concurrent checks are.
await Promise.all(
  Array.from({ length: 4 }, async (_, lane) => {
    for (let n = from + lane; n < from + count; n += 4) {
      await bus.publish(`results.m${n % 20}`, new TextEncoder().encode(String(n)), { msgId: `r${n}` })
      write(`acked ${n}`)
    }
  }),
)
write('published')
