import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildCollectorApp, collectorEnvSchema, prepareCollector } from '@guard/collector'
import {
  createFastify,
  createInProcessBus,
  createLogger,
  DEFAULT_ORGANIZATION,
  guardStreams,
  listeningUrl,
  newId,
  openRelationalStore,
  openTimeSeriesStore,
  type RelationalStore,
} from '@guard/shared'
import { startPostgres } from '@guard/shared/testing'
import autocannon from 'autocannon'

/**
 * bench/api: seeds BENCH_DOMAINS domains (1000) x 3 locations x BENCH_DAYS days (30) of one-minute
 * results into chDB (generated inside ClickHouse, through the rollup views), then measures
 * p50/p99 latency and requests per second with autocannon (BENCH_CONNECTIONS 10, BENCH_SECONDS 5
 * per endpoint) for list, detail, locations (24h) and stats (30d, 90d), against a bare fastify
 * route in the same run. Prints JSON with each endpoint's figures and its ratio to the bare route.
 */
const domains = Number(process.env.BENCH_DOMAINS ?? 1000)
const days = Number(process.env.BENCH_DAYS ?? 30)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const DOMAINS_PER_INSERT = 10
const round = (value: number) => Number(value.toPrecision(4))

const postgres = await startPostgres()
const dataDir = await mkdtemp(join(tmpdir(), 'guard-bench-api-'))
let sql: RelationalStore | undefined
try {
  sql = await openRelationalStore({ databaseUrl: postgres?.url, dataDir })
  const timeseries = await openTimeSeriesStore({ database: 'bench', dataDir })
  const env = collectorEnvSchema.parse({
    GUARD_RATE_LIMIT_READ: '100000000',
    GUARD_RATE_LIMIT_WRITE: '100000000',
    GUARD_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  })
  const log = createLogger({ name: 'bench', level: 'silent', pretty: false })
  const bus = createInProcessBus({ streams: guardStreams })
  const { ctx, created } = await prepareCollector({ env, log, sql, timeseries, bus })
  const organizationId = DEFAULT_ORGANIZATION.id
  const ids = Array.from({ length: domains }, () => newId())
  await sql.query(
    `INSERT INTO monitoring.monitors (id, organization_id, kind, name, target, check_interval, timeout_seconds)
     SELECT id, $2, 'domain', 'domain ' || id, jsonb_build_object('kind', 'http', 'url', 'https://' || id || '.example'), 60, 30
       FROM unnest($1::text[]) AS id`,
    [ids, organizationId],
  )
  await sql.query(
    `INSERT INTO monitoring.monitor_state (monitor_id, organization_id, status, changed_at, last_check_at, consecutive_failures)
     SELECT id, $2, 'up', now(), now(), 0 FROM unnest($1::text[]) AS id`,
    [ids, organizationId],
  )

  const minutes = days * 1440
  const seedStart = performance.now()
  const start = Date.now() - minutes * 60_000
  for (let offset = 0; offset < domains; offset += DOMAINS_PER_INSERT) {
    const chunk = ids.slice(offset, offset + DOMAINS_PER_INSERT)
    await timeseries.client.command({
      query: `INSERT INTO check_results
                (id, organization_id, monitor_id, location, kind, status, started_at, response_time_ms, status_code, error, cert_issuer, cert_subject)
              SELECT concat(m, '-', l, '-', toString(minute)), {org:String}, m, l, 'http',
                     if(cityHash64(number) % 100 = 0, 'down', 'up'),
                     fromUnixTimestamp64Milli(toInt64({start:Int64} + minute * 60000)),
                     50 + cityHash64(number) % 300, 200, '', '', ''
                FROM (SELECT number,
                             {ids:Array(String)}[intDiv(number, {perDomain:UInt64}) + 1] AS m,
                             ['fra', 'iad', 'sin'][intDiv(number % {perDomain:UInt64}, {minutes:UInt64}) + 1] AS l,
                             number % {minutes:UInt64} AS minute
                        FROM numbers({rows:UInt64}))`,
      query_params: {
        org: organizationId,
        start,
        ids: chunk,
        perDomain: 3 * minutes,
        minutes,
        rows: chunk.length * 3 * minutes,
      },
    })
  }
  const seedSeconds = (performance.now() - seedStart) / 1000

  const app = await buildCollectorApp(ctx)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const bare = createFastify({ logger: log })
  bare.get('/bare', async () => ({ success: true, data: { ok: true } }))
  await bare.listen({ host: '127.0.0.1', port: 0 })

  const measure = async (url: string, headers: Record<string, string> = {}) => {
    const result = await autocannon({ url, connections, duration: seconds, headers })
    return {
      requestsPerSecond: round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.non2xx,
    }
  }
  const auth = { authorization: `Bearer ${created!.key}` }
  const base = listeningUrl(app)
  const sample = ids[Math.floor(domains / 2)]!
  const ceiling = await measure(`${listeningUrl(bare)}/bare`)
  const endpoints: Record<string, string> = {
    list: '/api/domains?limit=20',
    detail: `/api/domains/${sample}`,
    locations24h: `/api/domains/${sample}/monitoring/locations?range=24h`,
    stats30d: `/api/domains/${sample}/stats?period=30d`,
    stats90d: `/api/domains/${sample}/stats?period=90d`,
  }
  const figures: Record<string, unknown> = {}
  for (const [name, path] of Object.entries(endpoints)) {
    const measured = await measure(`${base}${path}`, auth)
    figures[name] = { ...measured, ratio: round(measured.requestsPerSecond / ceiling.requestsPerSecond) }
  }
  const [{ rows }] = await Promise.all([
    timeseries.client
      .query({ query: 'SELECT count() AS rows FROM check_results', format: 'JSONEachRow' })
      .then((result) => result.json<{ rows: number }>())
      .then((rows) => ({ rows: Number(rows[0]?.rows ?? 0) })),
  ])
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'api',
        domains,
        locations: 3,
        days,
        rawRows: rows,
        seedSeconds: round(seedSeconds),
        relational: sql.engine,
        timeseries: timeseries.engine,
        connections,
        secondsPerEndpoint: seconds,
        bareFastify: ceiling,
        endpoints: figures,
      },
      null,
      2,
    )}\n`,
  )
  await app.close()
  await bare.close()
  await bus.close()
  await timeseries.close()
} finally {
  await sql?.close()
  await postgres?.stop()
  await rm(dataDir, { recursive: true, force: true })
}
