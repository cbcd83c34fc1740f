import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectorEnvSchema, prepareCollector } from '@guard/collector'
import {
  type CheckResult,
  createLogger,
  createNatsBus,
  DEFAULT_ORGANIZATION,
  encodeCheckResult,
  guardStreams,
  newId,
  openRelationalStore,
  openTimeSeriesStore,
  type RelationalStore,
  resultSubject,
} from '@guard/shared'
import { startNatsServer, startPostgres } from '@guard/shared/testing'
import { consumeResults, type IngestStats } from '../../collector/src/ingest/consume-results.ts'
import { createIngestMetrics } from '../../collector/src/ingest/metrics.ts'

/**
 * bench/ingest: BENCH_RESULTS results (20000) for BENCH_MONITORS domains (1000) at three
 * locations are published to a real nats-server; then a bare JetStream durable consumes and acks
 * them all (the ceiling), then the collector's own ingest (decode, dedupe check, chDB insert
 * feeding both rollup views, the monitor state machine in PostgreSQL, ack, then the summary
 * refresher) stores them all.
 * Prints JSON with both rates, their ratio, the mean time spent in each phase per 1,000 results and
 * this process' CPU per 1,000 results on each side. PostgreSQL is a real server when one is installed,
 * PGlite otherwise (named in the output).
 */
const total = Number(process.env.BENCH_RESULTS ?? 20_000)
const monitors = Number(process.env.BENCH_MONITORS ?? 1000)
const maxBatch = Number(process.env.BENCH_BATCH ?? 1000)
const locations = ['fra', 'iad', 'sin']

const round = (value: number) => Number(value.toPrecision(4))
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000

async function waitFor(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('bench timed out')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const nats = await startNatsServer()
if (!nats) throw new Error('bench/ingest needs nats-server (apt-get install nats-server)')
const postgres = await startPostgres()
const dataDir = await mkdtemp(join(tmpdir(), 'guard-bench-ingest-'))
const bus = await createNatsBus({ servers: nats.url, name: 'bench-ingest', streams: guardStreams })
let sql: RelationalStore | undefined
try {
  sql = await openRelationalStore({ databaseUrl: postgres?.url, dataDir })
  const timeseries = await openTimeSeriesStore({ database: 'bench', dataDir })
  const env = collectorEnvSchema.parse({
    GUARD_INGEST_MAX_BATCH: String(maxBatch),
    GUARD_INGEST_MAX_WAIT_MS: '50',
    GUARD_DATA_DIR: dataDir,
  })
  const log = createLogger({ name: 'bench', level: 'silent', pretty: false })
  const { ctx } = await prepareCollector({ env, log, sql, timeseries, bus })
  const ids = Array.from({ length: monitors }, () => newId())
  await sql.query(
    `INSERT INTO monitoring.monitors (id, organization_id, kind, name, target, check_interval, timeout_seconds)
     SELECT id, $2, 'domain', id, jsonb_build_object('kind', 'http', 'url', 'https://' || id || '.example'), 60, 30
       FROM unnest($1::text[]) AS id`,
    [ids, DEFAULT_ORGANIZATION.id],
  )

  const started = Date.now() - total * 10
  const publishStart = performance.now()
  const pending: Promise<unknown>[] = []
  for (let index = 0; index < total; index += 1) {
    const location = locations[index % locations.length]!
    const result: CheckResult = {
      v: 1,
      id: newId(),
      monitorId: ids[Math.floor(index / locations.length) % monitors]!,
      organizationId: DEFAULT_ORGANIZATION.id,
      location,
      kind: 'http',
      status: index % 50 === 0 ? 'down' : 'up',
      startedAt: new Date(started + index * 10).toISOString(),
      responseTimeMs: 50 + (index % 200),
      statusCode: 200,
      phases: { dnsMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 20, transferMs: 1 },
    }
    pending.push(bus.publish(resultSubject(location), encodeCheckResult(result), { msgId: result.id }))
    if (pending.length >= 500) await Promise.all(pending.splice(0))
  }
  await Promise.all(pending)
  const publishSeconds = (performance.now() - publishStart) / 1000

  // The ceiling: a durable that only acks, reading the same stream with the same batching.
  let acked = 0
  const rawStart = performance.now()
  const rawCpu = process.cpuUsage()
  const raw = await bus.consume(
    { stream: 'RESULTS', durable: 'bench-raw', filterSubject: 'results.>', maxBatch, maxWaitMs: 50, ackWaitMs: 30_000 },
    async (batch) => {
      await Promise.all(batch.map((message) => message.ack()))
      acked += batch.length
    },
  )
  await waitFor(() => acked >= total, 300_000)
  const rawSeconds = (performance.now() - rawStart) / 1000
  const rawCpuMs = cpuMs(process.cpuUsage(rawCpu))
  await raw.stop()

  const stats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
  const ingestStart = performance.now()
  const ingestCpu = process.cpuUsage()
  const metrics = createIngestMetrics()
  const ingest = await consumeResults(ctx, stats, metrics)
  await waitFor(() => stats.stored >= total, 600_000)
  const ingestSeconds = (performance.now() - ingestStart) / 1000
  const ingestCpuMs = cpuMs(process.cpuUsage(ingestCpu))
  // Stopping waits for the summary refresher to catch up with the last batches.
  const stopStart = performance.now()
  await ingest.stop()
  const summaryCatchUpMs = performance.now() - stopStart

  // Where a batch's time goes, mean milliseconds per 1,000 results (the ingest stores the batches
  // fetched while its stores were busy as one group, so stored batches vary in size). Dedupe + insert
  // (ClickHouse) run beside state (PostgreSQL); a batch's ack runs beside the next batch's fetch and
  // stores; the summary refresher runs after the ack, once per GUARD_SUMMARY_REFRESH_MS.
  const phases = Object.fromEntries(
    (await metrics.phaseSeconds.get()).values.map((value) => [
      value.labels.phase,
      round((value.value * 1000 * 1000) / total),
    ]),
  )
  const rawRate = total / rawSeconds
  const ingestRate = total / ingestSeconds
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'ingest',
        results: total,
        monitors,
        maxBatch,
        relational: sql.engine,
        timeseries: timeseries.engine,
        publishPerSecond: round(total / publishSeconds),
        rawConsumeAckPerSecond: round(rawRate),
        collectorIngestPerSecond: round(ingestRate),
        storedGroups: stats.batches,
        meanGroupSize: round(total / stats.batches),
        msPer1000Results: round((ingestSeconds * 1000 * 1000) / total),
        phaseMsPer1000Results: phases,
        // This process' CPU (every thread: the event loop, V8's collector, chDB) per 1,000 results. On a
        // busy machine the ratio follows these more than the pipeline (PostgreSQL and nats-server not counted).
        rawCpuMsPer1000: round((rawCpuMs * 1000) / total),
        ingestCpuMsPer1000: round((ingestCpuMs * 1000) / total),
        summaryCatchUpMs: round(summaryCatchUpMs),
        ratio: round(ingestRate / rawRate),
      },
      null,
      2,
    )}\n`,
  )
  await timeseries.close()
} finally {
  await bus.close()
  await sql?.close()
  await nats.stop()
  await postgres?.stop()
  await rm(dataDir, { recursive: true, force: true })
}
