import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { buildCollectorApp, collectorEnvSchema, prepareCollector } from '@guard/collector'
import {
  createFastify,
  createInProcessBus,
  createLogger,
  DEFAULT_ORGANIZATION,
  guardStreams,
  listeningUrl,
  openRelationalStore,
  openTimeSeriesStore,
  type RelationalStore,
} from '@guard/shared'
import { startPostgres } from '@guard/shared/testing'
import autocannon from 'autocannon'
import { createApiKey } from '../../collector/src/services/api-keys/create.ts'
import { seedMonitorState } from './seed.ts'

/**
 * bench/metrics: GET /metrics/monitors at BENCH_MONITORS monitors (10,000), each with 3 locations,
 * 24-hour figures, a certificate, two tags and a registered domain, 1% of them with an open incident,
 * in server mode (PostgreSQL) and embedded mode (PGlite; BENCH_MODES). Measured with autocannon
 * (BENCH_CONNECTIONS 1, as one Prometheus scrapes, with `Accept-Encoding: gzip` as Prometheus sends;
 * BENCH_SECONDS 10; in a worker thread, so this thread's event loop is the collector's alone) with
 * the per-organization cache off (every scrape reads the state: the cost a 15 s scrape pays, as the
 * 5 s cache is over by the next one) and on, against a bare fastify route in the same run. Prints
 * JSON: requests/s, p50/p99, bytes per scrape (raw, gzip, and per family), the collector's event loop
 * delay (p99, max) during the scrapes, ratio to the bare route.
 */
const monitors = Number(process.env.BENCH_MONITORS ?? 10_000)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 1)
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const modes = (process.env.BENCH_MODES ?? 'server,embedded').split(',')
const round = (value: number) => Number(value.toPrecision(4))

const postgres = await startPostgres()
const dataDir = await mkdtemp(join(tmpdir(), 'guard-bench-metrics-'))
const stores: RelationalStore[] = []
const closers: Array<() => Promise<unknown>> = []
try {
  const timeseries = await openTimeSeriesStore({ database: 'bench', dataDir })
  closers.push(() => timeseries.close())
  const log = createLogger({ name: 'bench', level: 'silent', pretty: false })
  const organizationId = DEFAULT_ORGANIZATION.id
  const bare = createFastify({ logger: log })
  bare.get('/bare', async () => ({ success: true, data: { ok: true } }))
  await bare.listen({ host: '127.0.0.1', port: 0 })
  closers.push(() => bare.close())
  const measure = async (url: string, headers: Record<string, string> = {}) => {
    const delay = monitorEventLoopDelay({ resolution: 5 })
    delay.enable()
    const result = await autocannon({ url, connections, duration: seconds, headers, workers: 1, timeout: 60 })
    delay.disable()
    return {
      requestsPerSecond: round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.non2xx,
      requests: result.requests.total,
      bytesPerRequest: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
      eventLoopDelayP99Ms: round(delay.percentile(99) / 1e6),
      eventLoopDelayMaxMs: round(delay.max / 1e6),
    }
  }
  /** Bytes of each family's samples: what to trim first. */
  const familyBytes = (text: string) => {
    const bytes: Record<string, number> = {}
    for (const line of text.split('\n')) {
      if (!line || line.startsWith('#')) continue
      const name = line.slice(0, line.search(/[{ ]/))
      bytes[name] = (bytes[name] ?? 0) + line.length + 1
    }
    return Object.fromEntries(Object.entries(bytes).sort(([, a], [, b]) => b - a))
  }
  const figures: Record<string, unknown> = {}
  for (const mode of modes) {
    if (mode === 'server' && !postgres) continue
    const sql = await openRelationalStore({
      databaseUrl: mode === 'server' ? postgres?.url : undefined,
      dataDir: await mkdtemp(join(dataDir, `${mode}-`)),
    })
    stores.push(sql)
    let seedSeconds = 0
    for (const cache of ['off', 'on']) {
      const env = collectorEnvSchema.parse({
        GUARD_RATE_LIMIT_READ: '100000000',
        GUARD_DATA_DIR: dataDir,
        GUARD_MONITOR_METRICS_CACHE_MS: cache === 'on' ? '5000' : '0',
        LOG_LEVEL: 'silent',
      })
      const bus = createInProcessBus({ streams: guardStreams })
      closers.push(() => bus.close())
      const { ctx } = await prepareCollector({ env, log, sql, timeseries, bus })
      if (cache === 'off') {
        const seedStart = performance.now()
        await seedMonitorState(sql, { organizationId, monitors })
        seedSeconds = round((performance.now() - seedStart) / 1000)
      }
      const { key } = await createApiKey(sql, {
        organizationId,
        name: `scraper-${cache}`,
        permissions: ['metrics:read'],
      })
      const app = await buildCollectorApp(ctx)
      await app.listen({ host: '127.0.0.1', port: 0 })
      const url = `${listeningUrl(app)}/metrics/monitors`
      const headers = { authorization: `Bearer ${key}` }
      const first = await fetch(url, { headers }).then((response) => response.text())
      const ceiling = await measure(`${listeningUrl(bare)}/bare`)
      const scrape = await measure(url, { ...headers, 'accept-encoding': 'gzip' })
      figures[`${mode}, cache ${cache}`] = {
        ...(cache === 'off' ? { seedSeconds } : {}),
        series: first.split('\n').filter((line) => line && !line.startsWith('#')).length,
        bytes: Buffer.byteLength(first),
        gzipBytes: gzipSync(first).length,
        ...(cache === 'off' ? { familyBytes: familyBytes(first) } : {}),
        bare: ceiling,
        scrape,
        ratio: round(scrape.requestsPerSecond / ceiling.requestsPerSecond),
      }
      await app.close()
    }
  }
  process.stdout.write(
    `${JSON.stringify({ bench: 'metrics', monitors, locations: 3, connections, seconds, load: loadavg(), modes: figures }, null, 2)}\n`,
  )
} finally {
  for (const close of closers.reverse()) await close().catch(() => {})
  for (const sql of stores) await sql.close().catch(() => {})
  await postgres?.stop()
  await rm(dataDir, { recursive: true, force: true })
}
