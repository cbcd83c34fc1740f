import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
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
import { benchCheckResult } from './check-result.ts'
import { benchIngestReplicas } from './replicas.ts'

/**
 * bench/ingest: BENCH_RESULTS results (20000) for BENCH_MONITORS domains (1000) at three
 * locations are published to a real nats-server; then a bare JetStream durable consumes and acks
 * them all (the ceiling), then the collector's own ingest (decode, dedupe check, chDB insert
 * feeding both rollup views, the monitor state machine in PostgreSQL, ack, then the summary
 * refresher) stores them all.
 * Prints JSON with both rates, their ratio, the mean time spent in each phase per 1,000 results and
 * this process' CPU per 1,000 results on each side. PostgreSQL is a real server when one is installed,
 * PGlite otherwise (named in the output). With BENCH_POISON_EVERY=N, every Nth result carries a NUL
 * that PostgreSQL refuses (a data error): the ingest isolates and dead-letters each, and the ratio
 * shows what that costs the others. With BENCH_REPLICAS=1,2,3 it measures collector processes
 * side by side instead (see replicas.ts).
 */
const total = Number(process.env.BENCH_RESULTS ?? 20_000)
const monitors = Number(process.env.BENCH_MONITORS ?? 1000)
const maxBatch = Number(process.env.BENCH_BATCH ?? 1000)
const poisonEvery = Number(process.env.BENCH_POISON_EVERY ?? 0)
const locations = ['fra', 'iad', 'sin']
const poisoned = (index: number) => poisonEvery > 0 && index % poisonEvery === poisonEvery - 1
const replicaCounts = (process.env.BENCH_REPLICAS ?? '').split(',').filter(Boolean).map(Number)

const round = (value: number) => Number(value.toPrecision(4))
const CLOCK_TICKS_PER_SECOND = 100

/** utime + stime of a /proc stat line, in milliseconds. */
const statCpuMs = (stat: string) => {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND
}

/**
 * CPU used so far on the whole machine's side of the bench: this process' main thread (the event
 * loop), its other threads (chDB, V8's collector, libuv), and every nats-server and postgres process.
 * The ratio follows these when the two cores are the limit.
 */
async function cpuNow(): Promise<Record<'mainThread' | 'otherThreads' | 'natsServer' | 'postgres', number>> {
  const readStat = (path: string) => readFile(path, 'utf8').catch(() => '')
  const mainThread = statCpuMs(await readStat(`/proc/${process.pid}/task/${process.pid}/stat`))
  const whole = statCpuMs(await readStat(`/proc/${process.pid}/stat`))
  const processes = new Map<number, { parent: number; name: string; stat: string }>()
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = await readStat(`/proc/${entry}/stat`)
    if (!stat) continue
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    const parent = Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[1])
    processes.set(Number(entry), { parent, name, stat })
  }
  // Only this bench's own servers: another bench running meanwhile has its own.
  const ours = (pid: number): boolean => {
    for (let at = processes.get(pid)?.parent; at !== undefined && at > 1; at = processes.get(at)?.parent) {
      if (at === process.pid) return true
    }
    return false
  }
  let natsServer = 0
  let postgres = 0
  for (const [pid, { name, stat }] of processes) {
    if (name === 'nats-server' && ours(pid)) natsServer += statCpuMs(stat)
    else if (name === 'postgres' && ours(pid)) postgres += statCpuMs(stat)
  }
  return { mainThread, otherThreads: whole - mainThread, natsServer, postgres }
}

/** This process' threads' CPU so far by thread name (digits folded, so a pool's threads add up). */
async function threadCpuNow(): Promise<Map<string, number>> {
  const byName = new Map<string, number>()
  const tasks = await readdir(`/proc/${process.pid}/task`).catch(() => [])
  for (const task of tasks) {
    if (task === String(process.pid)) continue
    const stat = await readFile(`/proc/${process.pid}/task/${task}/stat`, 'utf8').catch(() => '')
    if (!stat) continue
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+/g, '#')
    byName.set(name, (byName.get(name) ?? 0) + statCpuMs(stat))
  }
  return byName
}

/** The busiest thread names' CPU per 1,000 results between two threadCpuNow readings (exited threads drop out). */
const threadsPer1000 = (before: Map<string, number>, after: Map<string, number>) =>
  Object.fromEntries(
    [...after]
      .map(([name, value]) => [name, round(((value - (before.get(name) ?? 0)) * 1000) / total)] as const)
      .filter(([, value]) => value >= 0.5)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10),
  )

/** CPU milliseconds per 1,000 results between two cpuNow readings. */
const cpuPer1000 = (before: Awaited<ReturnType<typeof cpuNow>>, after: typeof before) =>
  Object.fromEntries(
    Object.entries(after).map(([key, value]) => [
      key,
      round(((value - before[key as keyof typeof before]) * 1000) / total),
    ]),
  )

async function waitFor(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('bench timed out')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

if (replicaCounts.length > 0) {
  await benchIngestReplicas(replicaCounts, total, monitors, maxBatch)
  process.exit(0)
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
    const result: CheckResult = {
      ...benchCheckResult({ index, ids, monitors, locations, started }),
      ...(poisoned(index) ? { status: 'down' as const, error: 'quoted \u0000 from the body' } : {}),
    }
    pending.push(bus.publish(resultSubject(result.location), encodeCheckResult(result), { msgId: result.id }))
    if (pending.length >= 500) await Promise.all(pending.splice(0))
  }
  await Promise.all(pending)
  const publishSeconds = (performance.now() - publishStart) / 1000

  // The ceiling: a durable that only acks, reading the same stream with the same batching.
  let acked = 0
  const rawStart = performance.now()
  const rawCpu = await cpuNow()
  const rawThreads = await threadCpuNow()
  const raw = await bus.consume(
    { stream: 'RESULTS', durable: 'bench-raw', filterSubject: 'results.>', maxBatch, maxWaitMs: 50, ackWaitMs: 30_000 },
    async (batch) => {
      await Promise.all(batch.map((message) => message.ack()))
      acked += batch.length
    },
  )
  await waitFor(() => acked >= total, 300_000)
  const rawSeconds = (performance.now() - rawStart) / 1000
  const rawCpuMs = cpuPer1000(rawCpu, await cpuNow())
  const rawThreadsMs = threadsPer1000(rawThreads, await threadCpuNow())
  await raw.stop()

  const stats: IngestStats = { stored: 0, deadLettered: 0, batches: 0 }
  const ingestStart = performance.now()
  const ingestCpu = await cpuNow()
  const ingestThreads = await threadCpuNow()
  const metrics = createIngestMetrics()
  const ingest = await consumeResults(ctx, stats, metrics)
  await waitFor(() => stats.stored + stats.deadLettered >= total, 600_000)
  const ingestSeconds = (performance.now() - ingestStart) / 1000
  const ingestCpuMs = cpuPer1000(ingestCpu, await cpuNow())
  const ingestThreadsMs = threadsPer1000(ingestThreads, await threadCpuNow())
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
        poisonEvery,
        deadLettered: stats.deadLettered,
        relational: sql.engine,
        timeseries: timeseries.engine,
        publishPerSecond: round(total / publishSeconds),
        rawConsumeAckPerSecond: round(rawRate),
        collectorIngestPerSecond: round(ingestRate),
        storedGroups: stats.batches,
        meanGroupSize: round(total / stats.batches),
        msPer1000Results: round((ingestSeconds * 1000 * 1000) / total),
        phaseMsPer1000Results: phases,
        // CPU per 1,000 results by where it ran (see cpuNow): on two cores the ratio follows their sums.
        rawCpuMsPer1000: rawCpuMs,
        ingestCpuMsPer1000: ingestCpuMs,
        // otherThreads split by thread name, the busiest first.
        rawThreadCpuMsPer1000: rawThreadsMs,
        ingestThreadCpuMsPer1000: ingestThreadsMs,
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
