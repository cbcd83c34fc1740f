import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildCollectorApp, collectorEnvSchema, prepareCollector } from '@guard/collector'
import {
  createFastify,
  createInProcessBus,
  createLogger,
  guardStreams,
  listeningUrl,
  openDurableInProcessBus,
  openRelationalStore,
  openTimeSeriesStore,
  type RelationalStore,
  type TimeSeriesStore,
} from '@guard/shared'
import { startPostgres } from '@guard/shared/testing'
import autocannon from 'autocannon'
import type { CollectorContext } from '../../collector/src/context.ts'
import { consumeHeartbeatPings, type PingIngestStats } from '../../collector/src/ingest/consume-heartbeat-pings.ts'
import { consumeResults, type IngestStats } from '../../collector/src/ingest/consume-results.ts'
import { detectHeartbeatDeadlines } from '../../collector/src/services/heartbeats/detect-deadlines.ts'
import { seedHeartbeatFleet } from '../../collector/src/test-support.ts'

/**
 * bench/heartbeats, two parts, printed as one JSON document:
 *
 * pings: BENCH_HEARTBEATS (1000) heartbeat monitors; autocannon (BENCH_CONNECTIONS 50,
 * BENCH_SECONDS 10) sends their pings, tokens in turn, to POST /ping/{token} (token lookup,
 * durable publish on the bus, 200). The end-to-end rate counts a ping once the consumer applied it
 * and stored it in ClickHouse; `lost` is pings answered 200 and not in ClickHouse. The ceiling is a
 * bare fastify route reading the same body, in the same process and run; goal ≥ 0.3 of it.
 *
 * detection: BENCH_DETECT_HEARTBEATS (10000) heartbeats whose deadlines fall across the next
 * BENCH_DETECT_SPREAD_SECONDS (10); the deadline job ticks every second (as
 * GUARD_HEARTBEAT_DEADLINE_CRON `* * * * * *` would) and the results go through the ingest to
 * the state. Latency is the time from a deadline to the moment its heartbeat reads down; goal p99
 * below 5 s. BENCH_PARTS (`pings,detection`) picks the parts.
 *
 * The bus is embedded mode's (on disk, fsync before a publish resolves); BENCH_BUS=memory runs the
 * in-memory one, to see what the disk costs. The ingest batches as shipped (GUARD_INGEST_MAX_WAIT_MS
 * 500): a shorter wait makes smaller batches, each paying its transaction and inserts.
 */
const heartbeats = Number(process.env.BENCH_HEARTBEATS ?? 1000)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const detectCount = Number(process.env.BENCH_DETECT_HEARTBEATS ?? 10_000)
const spreadSeconds = Number(process.env.BENCH_DETECT_SPREAD_SECONDS ?? 10)
const busKind = process.env.BENCH_BUS ?? 'durable'
const parts = (process.env.BENCH_PARTS ?? 'pings,detection').split(',')
const round = (value: number) => Number(value.toPrecision(4))
const BODY = 'backup done: 1284 files, 3.1 GB'

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

async function countPings(timeseries: TimeSeriesStore): Promise<number> {
  const result = await timeseries.client.query({
    query: 'SELECT count() AS n FROM heartbeat_pings FINAL',
    format: 'JSONEachRow',
  })
  const [row] = await result.json<{ n: string }>()
  return Number(row?.n ?? 0)
}

async function pings(ctx: CollectorContext, timeseries: TimeSeriesStore) {
  const fleet = await seedHeartbeatFleet(ctx, heartbeats, () => new Date(Date.now() + 3_600_000))
  let sequence = 0
  const run = (url: string) =>
    autocannon({
      url,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => ({
            ...request,
            path: `/ping/${fleet[sequence++ % fleet.length]!.token}`,
            headers: { 'content-type': 'text/plain' },
            body: BODY,
          }),
        },
      ],
    })
  const bare = createFastify({ logger: ctx.log })
  bare.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
  bare.post('/ping/:token', async () => ({ success: true, data: { received: true } }))
  await bare.listen({ host: '127.0.0.1', port: 0 })
  const bareCpu = process.cpuUsage()
  const bareResult = await run(listeningUrl(bare))
  const bareCpuMs = cpuMsSince(bareCpu)
  await bare.close()

  const app = await buildCollectorApp(ctx)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const stats: PingIngestStats = { stored: 0, deadLettered: 0, batches: 0 }
  const ingest: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
  const consumers = [await consumeHeartbeatPings(ctx, stats), await consumeResults(ctx, ingest)]
  const started = performance.now()
  const guardCpu = process.cpuUsage()
  const guardResult = await run(listeningUrl(app))
  const accepted = guardResult['2xx']
  const deadline = Date.now() + 600_000
  while (stats.stored < accepted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  const endToEndSeconds = (performance.now() - started) / 1000
  while (ingest.stored < stats.stored && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  const guardCpuMs = cpuMsSince(guardCpu)
  const bareCpuMsPerRequest = bareCpuMs / bareResult.requests.total
  const guardCpuMsPerPing = guardCpuMs / accepted
  const stored = await countPings(timeseries)
  for (const consumer of consumers) await consumer.stop()
  await app.close()
  return {
    heartbeats,
    connections,
    seconds,
    bareRoutePerSecond: round(bareResult.requests.average),
    acceptedPerSecond: round(accepted / seconds),
    non2xx: guardResult.non2xx,
    storedEndToEndPerSecond: round(stats.stored / endToEndSeconds),
    answered200: accepted,
    storedInClickHouse: stored,
    lost: Math.max(0, accepted - stored),
    resultsThroughIngest: ingest.stored,
    p99LatencyMs: guardResult.latency.p99,
    ratioToBareRoute: round(accepted / seconds / bareResult.requests.average),
    // The same comparison in CPU time (the client's included in both), which a busy machine
    // disturbs less than the rates: each ping's share until its result is stored in ClickHouse.
    bareCpuMsPerRequest: round(bareCpuMsPerRequest),
    cpuMsPerPingEndToEnd: round(guardCpuMsPerPing),
    cpuRatioToBareRoute: round(bareCpuMsPerRequest / guardCpuMsPerPing),
    goal: { ratioToBareRouteAtLeast: 0.3 },
  }
}

async function detection(ctx: CollectorContext) {
  const start = Date.now() + 2000
  const fleet = await seedHeartbeatFleet(
    ctx,
    detectCount,
    (index) => new Date(start + Math.floor((index / detectCount) * spreadSeconds * 1000)),
  )
  const deadlines = new Map(fleet.map((entry) => [entry.id, entry.due.getTime()]))
  const ingest: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
  const consumer = await consumeResults(ctx, ingest)
  const seen = new Map<string, number>()
  let ticking = true
  const ticks = (async () => {
    while (ticking) {
      const next = Math.ceil(Date.now() / 1000) * 1000
      await new Promise((resolve) => setTimeout(resolve, next - Date.now()))
      await detectHeartbeatDeadlines(ctx)
    }
  })()
  const until = start + spreadSeconds * 1000 + 60_000
  while (seen.size < fleet.length && Date.now() < until) {
    const { rows } = await ctx.sql.query<{ monitor_id: string }>(
      `SELECT monitor_id FROM monitoring.monitor_state WHERE status = 'down' AND monitor_id = ANY($1)`,
      [fleet.filter((entry) => !seen.has(entry.id)).map((entry) => entry.id)],
    )
    const now = Date.now()
    for (const row of rows) seen.set(row.monitor_id, now)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  ticking = false
  await ticks
  await consumer.stop()
  const latencies = [...seen].map(([id, at]) => (at - deadlines.get(id)!) / 1000).sort((a, b) => a - b)
  const quantile = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? null
  return {
    heartbeats: detectCount,
    deadlinesSpreadSeconds: spreadSeconds,
    tickSeconds: 1,
    detected: latencies.length,
    latencySeconds: { p50: quantile(0.5), p99: quantile(0.99), max: latencies.at(-1) ?? null },
    goal: { p99SecondsBelow: 5 },
  }
}

const dir = await mkdtemp(join(tmpdir(), 'guard-bench-heartbeats-'))
const postgres = await startPostgres()
let sql: RelationalStore | undefined
try {
  sql = await openRelationalStore({ databaseUrl: postgres?.url, dataDir: join(dir, 'pg') })
  const timeseries = await openTimeSeriesStore({ database: 'bench', dataDir: dir })
  const env = collectorEnvSchema.parse({
    GUARD_PING_MAX_PER_MINUTE: '100000',
    GUARD_RATE_LIMIT_PUBLIC: '100000000',
  })
  const log = createLogger({ name: 'bench', level: 'silent', pretty: false })
  // As embedded mode runs it (openBus): streams on disk, a publish answered after fsync.
  const bus =
    busKind === 'memory'
      ? createInProcessBus({ streams: guardStreams })
      : await openDurableInProcessBus({
          dir: join(dir, 'bus'),
          streams: guardStreams,
          fsync: 'always',
          maxBytes: 1024 * 1024 * 1024,
          maxAgeMs: 3600_000,
        })
  const { ctx } = await prepareCollector({ env, log, sql, timeseries, bus })
  const pingFigures = parts.includes('pings') ? await pings(ctx, timeseries) : undefined
  const detectionFigures = parts.includes('detection') ? await detection(ctx) : undefined
  await bus.close()
  await timeseries.close()
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'heartbeats',
        relational: sql.engine,
        bus: busKind,
        timeseries: timeseries.engine,
        pings: pingFigures,
        detection: detectionFigures,
      },
      null,
      2,
    )}\n`,
  )
} finally {
  await sql?.close()
  await postgres?.stop()
  await rm(dir, { recursive: true, force: true })
}
