import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Bus,
  createInProcessBus,
  encodeCheckResult,
  guardStreams,
  openDurableInProcessBus,
  resultSubject,
} from '@guard/shared'
import { sampleCheckResult } from '@guard/shared/testing'

/**
 * bench/bus: the cost of the embedded bus keeping its streams on disk. BENCH_RESULTS check results
 * (20000, real encoded payloads) are published by BENCH_PUBLISHERS concurrent publishers (50, as a
 * probe's concurrent checks publish) and consumed and acked in batches of 1000 by one durable,
 * first on the in-memory bus (the ceiling), then on the durable bus with fsync `none` and
 * `always`, in the same run. Prints JSON: results per second publishing and end to end, and
 * each durable figure as a ratio of the in-memory one.
 */
const total = Number(process.env.BENCH_RESULTS ?? 20_000)
const publishers = Number(process.env.BENCH_PUBLISHERS ?? 50)
const round = (value: number) => Number(value.toPrecision(4))

const payloads = Array.from({ length: total }, (_, index) => {
  const result = sampleCheckResult(`monitor-${index % 1000}`)
  return { id: result.id, data: encodeCheckResult(result) }
})

async function measure(bus: Bus, total: number): Promise<{ publishPerSecond: number; endToEndPerSecond: number }> {
  let consumed = 0
  let allConsumed: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    allConsumed = resolve
  })
  const consumer = await bus.consume(
    {
      stream: 'RESULTS',
      durable: 'bench',
      filterSubject: 'results.>',
      maxBatch: 1000,
      maxWaitMs: 20,
      ackWaitMs: 60_000,
    },
    async (batch) => {
      await Promise.all(batch.map((message) => message.ack()))
      consumed += batch.length
      if (consumed >= total) allConsumed()
    },
  )
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: publishers }, async () => {
      for (let index = next++; index < total; index = next++) {
        const payload = payloads[index]!
        await bus.publish(resultSubject('fra'), payload.data, { msgId: payload.id })
      }
    }),
  )
  const published = performance.now()
  await done
  const finished = performance.now()
  await consumer.stop()
  await bus.close()
  return {
    publishPerSecond: round(total / ((published - started) / 1000)),
    endToEndPerSecond: round(total / ((finished - started) / 1000)),
  }
}

const dir = await mkdtemp(join(tmpdir(), 'guard-bench-bus-'))
try {
  const durable = (fsync: 'none' | 'always', name: string) =>
    openDurableInProcessBus({
      dir: join(dir, name),
      streams: guardStreams,
      fsync,
      maxBytes: 1024 * 1024 * 1024,
      maxAgeMs: 3600_000,
    })
  // A warm-up of each kind first, so the first one measured does not pay for the JIT alone.
  const warmUp = Math.min(total, 3000)
  await measure(createInProcessBus({ streams: guardStreams }), warmUp)
  await measure(await durable('none', 'warm-none'), warmUp)
  await measure(await durable('always', 'warm-always'), warmUp)
  const memory = await measure(createInProcessBus({ streams: guardStreams }), total)
  const none = await measure(await durable('none', 'none'), total)
  const always = await measure(await durable('always', 'always'), total)
  const ratio = (figure: { publishPerSecond: number; endToEndPerSecond: number }) => ({
    publish: round(figure.publishPerSecond / memory.publishPerSecond),
    endToEnd: round(figure.endToEndPerSecond / memory.endToEndPerSecond),
  })
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'bus',
        results: total,
        publishers,
        inMemory: memory,
        durableFsyncNone: { ...none, ratioToInMemory: ratio(none) },
        durableFsyncAlways: { ...always, ratioToInMemory: ratio(always) },
      },
      null,
      2,
    )}\n`,
  )
} finally {
  await rm(dir, { recursive: true, force: true })
}
