import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildCollectorApp, type CollectorContext, collectorEnvSchema, prepareCollector } from '@guard/collector'
import {
  type CheckResult,
  createFastify,
  createInProcessBus,
  createLogger,
  DEFAULT_ORGANIZATION,
  guardStreams,
  listeningUrl,
  migrateTimeSeries,
  newId,
  openRelationalStore,
  openTimeSeriesStore,
  type RelationalStore,
  type TimeSeriesStore,
} from '@guard/shared'
import { startPostgres } from '@guard/shared/testing'
import autocannon from 'autocannon'
import { createSummaryRefresher } from '../../collector/src/jobs/summary-refresher.ts'
import { applyResultsToState } from '../../collector/src/services/monitor-state/apply-results.ts'
import { createReadCache } from '../../collector/src/services/read-cache/cache.ts'
import { invalidateIngestedReads } from '../../collector/src/services/read-cache/invalidate.ts'
import { storeResults } from '../../collector/src/services/results/store.ts'
import { DAILY_DAYS, refreshMonitorSummaries, utcDay } from '../../collector/src/services/summaries/refresh.ts'
import { organizeEndpoints, planOrganization, seedOrganization } from './organize.ts'
import { seedResults } from './seed.ts'

/**
 * bench/api: seeds BENCH_DOMAINS domains (1000) x 3 locations x BENCH_DAYS days (30) of one-minute
 * results (see seed.ts), then measures requests per second and p50/p99 latency with autocannon
 * (BENCH_CONNECTIONS 10, BENCH_SECONDS 5 per endpoint) for every read a list page, a detail page, a
 * dashboard and a public status page (BENCH_PAGE_COMPONENTS domains, 20; its JSON and HTML, each also
 * with a browser's Accept-Encoding) make, or only BENCH_ENDPOINTS (names, comma-separated), against a bare fastify
 * route in the same run. Each endpoint is measured in server mode (PostgreSQL + chDB) and embedded
 * mode (PGlite + chDB), with the read cache on and off (BENCH_CACHE), while results keep arriving as
 * they would from 1,000 domains x 3 locations at a 60 s interval (BENCH_INGEST_PER_SECOND, 50),
 * stored, invalidated and summarized as the ingest does. Queries
 * per request are counted per store. Prints JSON with ratios to the bare route.
 *
 * BENCH_ORGANIZE=1 measures the organizing reads instead (organize.ts): 9,000 domains and 1,000
 * services (BENCH_DOMAINS, BENCH_SERVICES) with 20 tags, in 500 groups, with dependencies and 250
 * SLOs; results (with outages, for the SLOs' bad minutes) for the first BENCH_RESULT_DOMAINS (1000).
 */
const organize = process.env.BENCH_ORGANIZE === '1'
const domains = Number(process.env.BENCH_DOMAINS ?? (organize ? 9000 : 1000))
const services = Number(process.env.BENCH_SERVICES ?? (organize ? 1000 : 0))
const resultDomains = Math.min(domains, Number(process.env.BENCH_RESULT_DOMAINS ?? (organize ? 1000 : domains)))
// The organizing reads look at the last 24 hours (lists, dashboard) and raw results (SLOs), which one day of results fills.
const days = Number(process.env.BENCH_DAYS ?? (organize ? 1 : 30))
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const ingestPerSecond = Number(process.env.BENCH_INGEST_PER_SECOND ?? 50)
const modes = (process.env.BENCH_MODES ?? 'server,embedded').split(',')
const cacheModes = (process.env.BENCH_CACHE ?? 'on,off').split(',')
const pageComponents = Number(process.env.BENCH_PAGE_COMPONENTS ?? 20)
/**
 * Worker threads autocannon sends from (0: the collector's own thread, as before). The client keeps
 * every response body as a string, so in the collector's thread it costs that thread in proportion
 * to the body: a fair ceiling for small answers, not for a 470 KB page or its compressed bytes.
 */
const clientWorkers = Number(process.env.BENCH_CLIENT_WORKERS ?? 1)
/** Comma-separated names of the endpoints to measure (`statusPage,list`); all when unset. */
const only = process.env.BENCH_ENDPOINTS?.split(',')
const round = (value: number) => Number(value.toPrecision(4))
const started = performance.now()
/** Where a long run is, on stderr; the figures stay alone on stdout. */
const progress = (step: string) =>
  process.stderr.write(`bench/api ${Math.round((performance.now() - started) / 1000)} s: ${step}\n`)

interface Counters {
  sql: number
  clickhouse: number
}

/** Counts every statement a store is asked to run, so figures can say how many a request costs. */
function countSql(sql: RelationalStore, counters: Counters) {
  const query = sql.query.bind(sql)
  sql.query = ((...args: Parameters<typeof query>) => {
    counters.sql++
    return query(...args)
  }) as typeof sql.query
}

function countClickhouse(timeseries: TimeSeriesStore, counters: Counters) {
  const client = timeseries.client
  for (const method of ['query', 'command', 'insert'] as const) {
    const original = client[method].bind(client) as (...args: unknown[]) => unknown
    ;(client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      counters.clickhouse++
      return original(...args)
    }
  }
}

/** The public page the bench reads: `bench`, showing the first domains. */
async function createStatusPage(base: string, auth: Record<string, string>, domainIds: string[]) {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as { data: { id: string } }
  }
  const page = await post('/api/status-pages', { name: 'Bench', slug: 'bench', isPublic: true })
  for (const domainId of domainIds) await post(`/api/status-pages/${page.data.id}/domains`, { domainId })
}

const postgres = await startPostgres()
const dataDir = await mkdtemp(join(tmpdir(), 'guard-bench-api-'))
const stores: RelationalStore[] = []
const closers: Array<() => Promise<unknown>> = []
try {
  const timeseries = await openTimeSeriesStore({ database: 'bench', dataDir })
  closers.push(() => timeseries.close())
  const log = createLogger({ name: 'bench', level: 'silent', pretty: false })
  const counters: Counters = { sql: 0, clickhouse: 0 }
  const organizationId = DEFAULT_ORGANIZATION.id
  const ids = Array.from({ length: domains }, () => newId())
  const serviceIds = Array.from({ length: services }, () => newId())
  // The domains with results, the ones arrivals keep checking and detail pages read.
  const seeded = ids.slice(0, resultDomains)
  const plan = organize ? planOrganization(seeded) : undefined
  countClickhouse(timeseries, counters)

  const openMode = async (mode: string) => {
    const sql = await openRelationalStore({
      databaseUrl: mode === 'server' ? postgres?.url : undefined,
      dataDir: await mkdtemp(join(dataDir, `${mode}-`)),
    })
    stores.push(sql)
    const env = collectorEnvSchema.parse({
      GUARD_RATE_LIMIT_READ: '100000000',
      GUARD_RATE_LIMIT_WRITE: '100000000',
      GUARD_RATE_LIMIT_PUBLIC: '100000000',
      GUARD_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
    })
    const bus = createInProcessBus({ streams: guardStreams })
    closers.push(() => bus.close())
    const { ctx, created } = await prepareCollector({ env, log, sql, timeseries, bus })
    return { sql, ctx, key: created!.key }
  }

  await migrateTimeSeries(timeseries, {
    service: 'collector',
    directory: fileURLToPath(new URL('../../collector/migrations/clickhouse', import.meta.url)),
  })
  progress(`seeding results of ${seeded.length} domains over ${days} days`)
  const seedStart = performance.now()
  const rows = await seedResults(timeseries, { ids: seeded, organizationId, days, outages: organize })
  const seedSeconds = (performance.now() - seedStart) / 1000

  const bare = createFastify({ logger: log })
  bare.get('/bare', async () => ({ success: true, data: { ok: true } }))
  await bare.listen({ host: '127.0.0.1', port: 0 })
  closers.push(() => bare.close())
  const measure = async (url: string, headers: Record<string, string> = {}) => {
    const result = await autocannon({
      url,
      connections,
      duration: seconds,
      headers,
      ...(clientWorkers ? { workers: clientWorkers } : {}),
    })
    return {
      requestsPerSecond: round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.non2xx,
      requests: result.requests.total,
      bytesPerRequest: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
    }
  }
  // The ceiling is measured again before each mode's block, so each ratio compares like with like on a busy machine.
  const ceilings: Record<string, Awaited<ReturnType<typeof measure>>> = {}

  /** Results as 1,000 domains x 3 locations at a 60 s interval deliver them, stored as the ingest stores them. */
  const startArrivals = (ctx: CollectorContext) => {
    const refresher = createSummaryRefresher(ctx)
    let next = 0
    let running: Promise<unknown> = Promise.resolve()
    const timer = setInterval(() => {
      const now = new Date().toISOString()
      const batch: CheckResult[] = Array.from({ length: ingestPerSecond }, () => {
        const monitorId = seeded[next++ % seeded.length]!
        return {
          v: 1,
          id: newId(),
          monitorId,
          organizationId,
          location: ['fra', 'iad', 'sin'][next % 3]!,
          kind: 'http',
          status: 'up',
          startedAt: now,
          responseTimeMs: 120,
          statusCode: 200,
        }
      })
      running = running.then(async () => {
        const stateChanged = new Set<string>()
        await applyResultsToState(ctx.sql, batch, { stateChanged })
        await storeResults(ctx.timeseries, batch)
        await invalidateIngestedReads({
          ctx,
          organizationIds: [organizationId],
          monitorIds: batch.map((r) => r.monitorId),
          stateChanged,
        })
        refresher.touched(batch)
      })
    }, 1000)
    return async () => {
      clearInterval(timer)
      await running
      await refresher.settled()
      await refresher.stop()
    }
  }

  const sample = seeded[Math.floor(seeded.length / 2)]!
  const endpoints: Record<string, string> = plan
    ? organizeEndpoints(plan)
    : {
        list: '/api/domains?limit=20',
        detail: `/api/domains/${sample}`,
        summary: `/api/domains/${sample}/summary`,
        locations24h: `/api/domains/${sample}/monitoring/locations?range=24h`,
        domainsStats: '/api/domains/stats',
        stats30d: `/api/domains/${sample}/stats?period=30d`,
        stats90d: `/api/domains/${sample}/stats?period=90d`,
        dashboardStats: '/api/dashboard/stats',
        statusPage: '/api/status-pages/bench/public',
        statusPageCompressed: '/api/status-pages/bench/public',
        statusPageHtml: '/status/bench',
        statusPageHtmlCompressed: '/status/bench',
      }
  /** What browsers send: the same page, compressed when the collector has a compressed copy. */
  const browser = { 'accept-encoding': 'gzip, deflate, br' }
  const endpointHeaders: Record<string, Record<string, string>> = {
    statusPageCompressed: browser,
    statusPageHtmlCompressed: browser,
  }
  const summarySeconds: Record<string, number> = {}
  const organizeSeconds: Record<string, number> = {}
  const figures: Record<string, Record<string, unknown>> = {}
  for (const mode of modes) {
    progress(`${mode}: seeding monitors`)
    const { sql, ctx, key } = await openMode(mode)
    await sql.query(
      `INSERT INTO monitoring.monitors (id, organization_id, kind, name, target, check_interval, timeout_seconds)
       SELECT id, $2, 'domain', 'domain ' || id, jsonb_build_object('kind', 'http', 'url', 'https://' || id || '.example'), 60, 30
         FROM unnest($1::text[]) AS id`,
      [ids, organizationId],
    )
    await sql.query(
      `INSERT INTO monitoring.monitors (id, organization_id, kind, name, protocol, target, check_interval, timeout_seconds)
       SELECT id, $2, 'service', 'service ' || id, 'tcp', jsonb_build_object('kind', 'tcp', 'host', id || '.example', 'port', 443), 60, 30
         FROM unnest($1::text[]) AS id`,
      [serviceIds, organizationId],
    )
    await sql.query(
      `INSERT INTO monitoring.monitor_state (monitor_id, organization_id, status, changed_at, last_check_at, consecutive_failures)
       SELECT id, $2, 'up', now(), now(), 0 FROM unnest($1::text[]) AS id`,
      [[...ids, ...serviceIds], organizationId],
    )
    const organizeStart = performance.now()
    if (plan) await seedOrganization(sql, { organizationId, monitorIds: [...ids, ...serviceIds], seeded, plan })
    organizeSeconds[mode] = round((performance.now() - organizeStart) / 1000)
    // What the sweep does at a collector's start: every monitor's 24 hours and daily rows from the rollups.
    progress(`${mode}: summary sweep`)
    const sweepStart = performance.now()
    await refreshMonitorSummaries({
      sql,
      timeseries: ctx.timeseries,
      input: { every: true, sinceDay: utcDay(Date.now() - (DAILY_DAYS - 1) * 86_400_000) },
    })
    summarySeconds[mode] = round((performance.now() - sweepStart) / 1000)
    countSql(sql, counters)
    for (const cache of cacheModes) {
      ctx.reads = createReadCache({ ttlMs: cache === 'on' ? ctx.env.GUARD_READ_CACHE_TTL_MS : 0, maxEntries: 10_000 })
      const app = await buildCollectorApp(ctx)
      await app.listen({ host: '127.0.0.1', port: 0 })
      const stopArrivals = startArrivals(ctx)
      const auth = { authorization: `Bearer ${key}` }
      const base = listeningUrl(app)
      if (cache === cacheModes[0]) await createStatusPage(base, auth, ids.slice(0, pageComponents))
      const results: Record<string, unknown> = {}
      const ceiling = await measure(`${listeningUrl(bare)}/bare`)
      ceilings[`${mode}, cache ${cache}`] = ceiling
      for (const [name, path] of Object.entries(endpoints).filter(([name]) => !only || only.includes(name))) {
        // One request first: a steady state, not the first cold miss, is what a dashboard sees.
        progress(`${mode}, cache ${cache}: ${name}`)
        const headers = { ...auth, ...endpointHeaders[name] }
        await fetch(`${base}${path}`, { headers }).then((response) => response.arrayBuffer())
        const before = { ...counters }
        const measured = await measure(`${base}${path}`, headers)
        const perRequest = (store: keyof Counters) =>
          round((counters[store] - before[store]) / Math.max(1, measured.requests))
        results[name] = {
          ...measured,
          ratio: round(measured.requestsPerSecond / ceiling.requestsPerSecond),
          // Arrivals add their own statements (about 3 a second), included here.
          queriesPerRequest: { sql: perRequest('sql'), clickhouse: perRequest('clickhouse') },
        }
      }
      await stopArrivals()
      await app.close()
      figures[`${mode}, cache ${cache}`] = results
    }
  }
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'api',
        domains,
        services,
        resultDomains,
        organize,
        organizeSeedSeconds: organizeSeconds,
        locations: 3,
        days,
        seeded: rows,
        seedSeconds: round(seedSeconds),
        connections,
        clientWorkers,
        secondsPerEndpoint: seconds,
        summarySweepSeconds: summarySeconds,
        ingestPerSecond,
        bareFastify: ceilings,
        modes: figures,
      },
      null,
      2,
    )}\n`,
  )
} finally {
  for (const close of closers.reverse()) await close().catch(() => {})
  for (const sql of stores) await sql.close().catch(() => {})
  await postgres?.stop()
  await rm(dataDir, { recursive: true, force: true })
}
