import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectorEnvSchema, prepareCollector } from '@guard/collector'
import {
  createLogger,
  DEFAULT_ORGANIZATION,
  guardStreams,
  openDurableInProcessBus,
  openRelationalStore,
  openTimeSeriesStore,
  type RelationalStore,
} from '@guard/shared'
import { startPostgres } from '@guard/shared/testing'
import { startFakeReceiver } from './fake.ts'
import { downToFirstDelivery } from './latency.ts'
import { outboxThroughput } from './throughput.ts'

/**
 * bench/alerting (README.md beside this file): the outbox's delivery rate to 100 organization
 * channels against a bare HTTP client, and the time from a monitor's down transition to its first
 * delivery with 1,000 monitors going down, on embedded mode's stores (PGlite, the on-disk bus,
 * chDB), or PostgreSQL with BENCH_RELATIONAL=postgres. A table on stderr, the figures as JSON on stdout.
 */
const channels = Number(process.env.BENCH_CHANNELS ?? 100)
const incidents = Number(process.env.BENCH_INCIDENTS ?? 30)
const monitors = Number(process.env.BENCH_MONITORS ?? 1000)
const latencyChannels = Number(process.env.BENCH_LATENCY_CHANNELS ?? 1)
const relational = process.env.BENCH_RELATIONAL ?? 'pglite'
const parts = (process.env.BENCH_PARTS ?? 'outbox,latency,staggered').split(',')
const staggeredCount = Number(process.env.BENCH_STAGGERED ?? 40)
if (relational !== 'pglite' && relational !== 'postgres') throw new Error('BENCH_RELATIONAL is pglite or postgres')
/** A second organization for part 2, so its incidents reach only its own channel. */
const LATENCY_ORGANIZATION = '00000000-0000-7000-8000-0000000000a1'
const STAGGERED_ORGANIZATION = '00000000-0000-7000-8000-0000000000a2'
/** relayStagedEvents' sweep and the event consumers' batch wait, as startReactions runs them. */
const RELAY_SWEEP_MS = 2000
const EVENT_CONSUMER_WAIT_MS = 20

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

function table(rows: Array<[string, string]>): string {
  const width = Math.max(...rows.map(([name]) => name.length))
  return rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join('\n')
}

const dir = await mkdtemp(join(tmpdir(), 'guard-bench-alerting-'))
const postgres = relational === 'postgres' ? await startPostgres() : undefined
if (relational === 'postgres' && !postgres) throw new Error('BENCH_RELATIONAL=postgres needs /usr/lib/postgresql/*/bin')
const fake = await startFakeReceiver()
let sql: RelationalStore | undefined
try {
  const loadBefore = loadAverage()
  sql = await openRelationalStore({ databaseUrl: postgres?.url, dataDir: join(dir, 'pg') })
  const timeseries = await openTimeSeriesStore({ database: 'bench', dataDir: dir })
  // Shipped settings, but for the secret key and local targets (the fake is on 127.0.0.1).
  const env = collectorEnvSchema.parse({
    GUARD_ALLOW_PRIVATE_TARGETS: '1',
    GUARD_SECRET_KEY: 'bench-alerting-secret-key-0123456789abcdef',
  })
  const log = createLogger({ name: 'bench', level: process.env.BENCH_LOG_LEVEL ?? 'silent', pretty: false })
  // As embedded mode opens it (openBus): streams on disk, a publish answered after fsync.
  const bus = await openDurableInProcessBus({
    dir: join(dir, 'bus'),
    streams: guardStreams,
    fsync: 'always',
    maxBytes: 1024 * 1024 * 1024,
    maxAgeMs: 3600_000,
  })
  const { ctx } = await prepareCollector({ env, log, sql, timeseries, bus })
  const outbox = parts.includes('outbox')
    ? await outboxThroughput(ctx, fake, { organizationId: DEFAULT_ORGANIZATION.id, channels, incidents })
    : undefined
  const latency = parts.includes('latency')
    ? await downToFirstDelivery(ctx, fake, {
        organizationId: LATENCY_ORGANIZATION,
        monitors,
        channels: latencyChannels,
      })
    : undefined
  // The usual case: among as many monitors, one goes down at a time.
  const staggered = parts.includes('staggered')
    ? await downToFirstDelivery(ctx, fake, {
        organizationId: STAGGERED_ORGANIZATION,
        monitors,
        channels: latencyChannels,
        stagger: { count: staggeredCount, staggerMs: 500 },
      })
    : undefined
  await bus.close()
  await timeseries.close()
  const figures = {
    bench: 'alerting',
    relational: sql.engine,
    bus: 'durable in-process (fsync always)',
    timeseries: timeseries.engine,
    pollIntervalsMs: {
      GUARD_INGEST_MAX_WAIT_MS: env.GUARD_INGEST_MAX_WAIT_MS,
      GUARD_DELIVERY_POLL_MS: env.GUARD_DELIVERY_POLL_MS,
      GUARD_ESCALATION_POLL_MS: env.GUARD_ESCALATION_POLL_MS,
      eventRelaySweep: RELAY_SWEEP_MS,
      eventConsumerBatchWait: EVENT_CONSUMER_WAIT_MS,
    },
    loadAverage: { before: loadBefore, after: loadAverage() },
    outbox,
    latency,
    staggered,
  }
  const rows: Array<[string, string]> = [
    ['relational store', `${sql.engine}`],
    ['load average before / after', `${figures.loadAverage.before} / ${figures.loadAverage.after}`],
  ]
  if (outbox) {
    rows.push(
      [`outbox: ${outbox.deliveries} deliveries (${channels} channels)`, `${outbox.deliveredPerSecond} delivered/s`],
      ['bare HTTP client, same bodies', `${outbox.bareClient.perSecond} requests/s`],
      ['ratio outbox / bare (rate, CPU)', `${outbox.ratioToBareClient}, ${outbox.cpuRatioToBareClient}`],
      ['incident events → outbox rows', `${outbox.queuedPerSecond} rows/s`],
    )
  }
  if (latency) {
    const down = latency.fromDownTransitionMs
    const published = latency.fromResultsPublishedMs
    rows.push(
      [`down → first delivery, ${monitors} monitors`, `p50 ${down.p50} ms, p99 ${down.p99} ms, max ${down.max} ms`],
      ['results published → first delivery', `p50 ${published.p50} ms, p99 ${published.p99} ms`],
    )
  }
  if (staggered) {
    const down = staggered.fromDownTransitionMs
    const published = staggered.fromResultsPublishedMs
    rows.push(
      [
        `one down every 500 ms, ${staggered.wentDown} of ${monitors} monitors`,
        `p50 ${down.p50} ms, p99 ${down.p99} ms, max ${down.max} ms`,
      ],
      ['…from its results published', `p50 ${published.p50} ms, p99 ${published.p99} ms`],
    )
  }
  process.stderr.write(`${table(rows)}\n`)
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`)
} finally {
  await fake.close()
  await sql?.close()
  await postgres?.stop()
  await rm(dir, { recursive: true, force: true })
}
