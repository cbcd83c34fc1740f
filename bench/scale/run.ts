import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import {
  createNatsBus,
  decodeJson,
  guardStreams,
  type ProbeHeartbeat,
  probeHeartbeatV1,
  RESULTS_STREAM,
} from '@guard/shared'
import { freePort, startNatsServer, startPostgres } from '@guard/shared/testing'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { INGEST_DURABLE } from '../../collector/src/ingest/consume-results.ts'
import { type GuardProcess, spawnGuard } from '../../test/support/spawn-guard.ts'

/**
 * bench/scale: BENCH_SCALE_MONITORS (10,000) HTTP monitors at a BENCH_SCALE_INTERVAL (60) s
 * interval, every one checked from three probe processes (fra, iad, sin), results ingested by two
 * collector replicas sharing one real nats-server and one PostgreSQL (each replica keeps its own
 * chDB: chDB is per process, see test/collector-replicas.e2e.test.ts). Targets are a local
 * fixture process: BENCH_SCALE_FIXTURE_PORTS (4) ports, one path per monitor. Monitors are created
 * through the API; after the probes have them all and BENCH_SCALE_WARMUP_SECONDS (interval + 30)
 * have passed, the run is measured for BENCH_SCALE_SECONDS (600) while a light loop
 * (BENCH_SCALE_API_PER_SECOND, 10) reads the list, a domain summary and the stats from both
 * replicas. Probes run BENCH_SCALE_PROBE_CONCURRENCY (200) checks at once. Then the probes stop (draining), the collectors finish the stream and stop, and their
 * stores are read back. Prints JSON: schedule lag, results expected, checked, streamed and stored
 * (and every monitor x location's runs in the window), collector RSS over time, API latency,
 * memory per monitor in the probe, and the machine's load while it ran.
 */
const monitorsCount = Number(process.env.BENCH_SCALE_MONITORS ?? 10_000)
const intervalSeconds = Number(process.env.BENCH_SCALE_INTERVAL ?? 60)
const seconds = Number(process.env.BENCH_SCALE_SECONDS ?? 600)
const warmupSeconds = Number(process.env.BENCH_SCALE_WARMUP_SECONDS ?? intervalSeconds + 30)
const apiPerSecond = Number(process.env.BENCH_SCALE_API_PER_SECOND ?? 10)
const fixturePorts = Number(process.env.BENCH_SCALE_FIXTURE_PORTS ?? 4)
/** Checks in flight per probe: a probe does at most this many / check duration checks per second. */
const probeConcurrency = Number(process.env.BENCH_SCALE_PROBE_CONCURRENCY ?? 200)
const LOCATIONS = ['fra', 'iad', 'sin']
const SEED_CONCURRENCY = 16
const SAMPLE_EVERY_MS = 15_000
const CLOCK_TICKS_PER_SECOND = 100
const LAG_GOAL_MS = 500
const API_GOAL_MS = 100

const round = (value: number, digits = 4) => Number(value.toPrecision(digits))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const progress = (message: string) =>
  process.stderr.write(`[scale ${new Date().toISOString().slice(11, 19)}] ${message}\n`)

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0) * 1024
}

async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? []
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND
}

/**
 * CPU used so far by this bench's nats-server, its PostgreSQL (server and backends) and the target
 * fixture: the processes beside the Guard ones that share the two cores.
 */
async function serversCpuMs(fixturePid: number): Promise<{ natsServer: number; postgres: number; fixture: number }> {
  const processes = new Map<number, { parent: number; name: string }>()
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '')
    if (!stat) continue
    const parent = Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[1])
    processes.set(Number(entry), { parent, name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) })
  }
  const ours = (pid: number) => {
    for (let at = processes.get(pid)?.parent; at !== undefined && at > 1; at = processes.get(at)?.parent) {
      if (at === process.pid) return true
    }
    return false
  }
  const sum = async (name: string) => {
    let total = 0
    for (const [pid, each] of processes) {
      if (each.name === name && ours(pid)) total += await cpuMs(pid).catch(() => 0)
    }
    return total
  }
  return { natsServer: await sum('nats-server'), postgres: await sum('postgres'), fixture: await cpuMs(fixturePid) }
}

/** The sum of a Prometheus text metric's samples whose labels contain every `labels` pair. */
function metric(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    if (!Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) continue
    sum += Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return sum
}

/** Cumulative counts of a histogram, by upper bound in seconds. */
function histogram(text: string, name: string): Map<number, number> {
  const buckets = new Map<number, number>()
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}_bucket{`)) continue
    const le = line.match(/le="([^"]+)"/)?.[1]
    if (!le) continue
    const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le)
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)))
  }
  return buckets
}

/** Lag figures from histogram counts taken at the start and the end of the measured window. */
function lagFigures(before: Map<number, number>, after: Map<number, number>) {
  const bounds = [...after.keys()].sort((a, b) => a - b)
  const delta = (bound: number) => (after.get(bound) ?? 0) - (before.get(bound) ?? 0)
  const total = delta(Number.POSITIVE_INFINITY)
  const p99Bound = bounds.find((bound) => delta(bound) >= 0.99 * total)
  return {
    checks: total,
    shareWithin500Ms: total === 0 ? null : round(delta(0.5) / total),
    shareWithin100Ms: total === 0 ? null : round(delta(0.1) / total),
    /** The smallest histogram bound under which 99 % of the lags fall. */
    p99AtMostMs: p99Bound === undefined ? null : p99Bound * 1000,
  }
}

function spawnLines(args: string[]): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)))
  })
  return { child, firstLine }
}

async function runToEnd(args: string[]): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'inherit', 'inherit'] })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) throw new Error(`${args[0]} exited with ${code}`)
}

/** A straight line through the samples: growth in bytes per minute. */
function slopePerMinute(samples: { at: number; bytes: number }[]): number {
  if (samples.length < 2) return 0
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
  const xs = samples.map((sample) => sample.at / 60_000)
  const ys = samples.map((sample) => sample.bytes)
  const [mx, my] = [mean(xs), mean(ys)]
  const numerator = xs.reduce((sum, x, index) => sum + (x - mx) * (ys[index]! - my), 0)
  const denominator = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0)
  return denominator === 0 ? 0 : numerator / denominator
}

const MB = 1024 * 1024

async function runScaleBench() {
  const nats = await startNatsServer()
  const postgres = await startPostgres()
  if (!nats || !postgres) throw new Error('bench scale needs nats-server and PostgreSQL binaries (see README)')
  const dirs: string[] = []
  const tempDir = async (name: string) => {
    const dir = await mkdtemp(join(tmpdir(), `guard-scale-${name}-`))
    dirs.push(dir)
    return dir
  }
  const processes: GuardProcess[] = []
  const fixture = spawnLines([new URL('./fixture.ts', import.meta.url).pathname, String(fixturePorts)])
  const loadBefore = loadavg()
  const startedAt = Date.now()
  let bus: Awaited<ReturnType<typeof createNatsBus>> | undefined
  let natsClient: Awaited<ReturnType<typeof connect>> | undefined
  try {
    const { ports } = JSON.parse(await fixture.firstLine) as { ports: number[] }

    // Two collector replicas on one PostgreSQL and one stream; the first creates the schema and the key.
    const collectors: { process: GuardProcess; url: string; dataDir: string }[] = []
    let apiKey = ''
    for (const name of ['a', 'b']) {
      const dataDir = await tempDir(`collector-${name}`)
      const child = spawnGuard(['collector'], {
        NATS_URL: nats.url,
        DATABASE_URL: postgres.url,
        GUARD_DATA_DIR: dataDir,
        GUARD_COLLECTOR_PORT: String(await freePort()),
        GUARD_ALLOW_PRIVATE_TARGETS: '1',
        GUARD_RATE_LIMIT_READ: '100000000',
        GUARD_RATE_LIMIT_WRITE: '100000000',
      })
      processes.push(child)
      const [, url] = (await child.waitFor(/collector: (http:\/\/127\.0\.0\.1:\d+)/, 180_000)) as RegExpMatchArray
      apiKey ||= child.output().match(/api key: (guard_\S+)/)?.[1] ?? ''
      collectors.push({ process: child, url: url!, dataDir })
    }
    progress(`collectors up: ${collectors.map((collector) => collector.url).join(' ')}`)
    const headers = { authorization: `Bearer ${apiKey}` }

    bus = await createNatsBus({ servers: nats.url, name: 'bench-scale', streams: guardStreams })
    const heartbeats: (ProbeHeartbeat & { receivedAt: number })[] = []
    const watching = await bus.subscribe('probes.heartbeat.*', (data) => {
      heartbeats.push({ ...decodeJson(probeHeartbeatV1, data), receivedAt: Date.now() })
    })

    const probes: { location: string; process: GuardProcess; metricsUrl: string }[] = []
    for (const location of LOCATIONS) {
      const metricsPort = await freePort()
      const child = spawnGuard(['probe', '--location', location], {
        NATS_URL: nats.url,
        GUARD_DATA_DIR: await tempDir(`probe-${location}`),
        GUARD_ALLOW_PRIVATE_TARGETS: '1',
        GUARD_PROBE_METRICS_PORT: String(metricsPort),
        GUARD_PROBE_CONCURRENCY: String(probeConcurrency),
      })
      processes.push(child)
      await child.waitFor(new RegExp(`probe: ${location}`), 120_000)
      probes.push({ location, process: child, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` })
    }
    const scrape = async () => Promise.all(probes.map(async (probe) => (await fetch(probe.metricsUrl)).text()))
    // Heap in use before any monitor: the least of a few scrapes, the closest to a heap after GC.
    const heapOf = (texts: string[]) => texts.map((text) => metric(text, 'guard_probe_nodejs_heap_size_used_bytes'))
    const rssOf = (texts: string[]) => texts.map((text) => metric(text, 'guard_probe_process_resident_memory_bytes'))
    const least = (rows: number[][]) => rows[0]!.map((_, index) => Math.min(...rows.map((row) => row[index]!)))
    const emptyScrapes: string[][] = []
    for (let scrapeIndex = 0; scrapeIndex < 5; scrapeIndex++) {
      emptyScrapes.push(await scrape())
      await sleep(1000)
    }
    const emptyHeap = least(emptyScrapes.map(heapOf))
    const emptyRss = least(emptyScrapes.map(rssOf))
    progress('probes up')

    // Monitors through the API, as users create them, spread over both replicas.
    const seedStarted = performance.now()
    const ids: string[] = []
    let next = 0
    await Promise.all(
      Array.from({ length: SEED_CONCURRENCY }, async (_, worker) => {
        while (next < monitorsCount) {
          const index = next++
          const port = ports[index % ports.length]
          const response = await fetch(new URL('/api/domains', collectors[worker % 2]!.url), {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({
              url: `http://127.0.0.1:${port}/m/${index}`,
              name: `scale-${index}`,
              checkInterval: intervalSeconds,
            }),
          })
          const body = (await response.json()) as { data?: { id: string } }
          if (response.status !== 201 || !body.data)
            throw new Error(`create failed: ${response.status} ${JSON.stringify(body)}`)
          ids.push(body.data.id)
        }
      }),
    )
    const seedSeconds = (performance.now() - seedStarted) / 1000
    progress(`${ids.length} monitors created in ${round(seedSeconds)} s`)

    // Every probe schedules every monitor before the warm-up counts.
    const scheduledEverywhere = async () => {
      const texts = await scrape()
      return texts.every((text) => metric(text, 'guard_probe_monitors') >= monitorsCount)
    }
    for (let waited = 0; !(await scheduledEverywhere()); waited++) {
      if (waited > 600) throw new Error('probes did not schedule every monitor within 5 minutes')
      await sleep(500)
    }
    const allScheduledAt = Date.now()
    progress(`every probe schedules ${monitorsCount} monitors; warming up ${warmupSeconds} s`)

    // Collector RSS (and probe RSS) from now on, warm-up included, so the curve shows where it settles.
    const rssSamples: {
      at: number
      phase: 'warmup' | 'measured'
      collectors: number[]
      probes: number[]
      probeHeap: number[]
      /** Each collector's event-loop delay p99 since the previous sample, ms. */
      collectorLoopP99Ms: number[]
      /** Each collector's JavaScript heap in use: what RSS holds beside it is native (chDB, buffers). */
      collectorHeap: number[]
      /** Each collector's chDB memory as chDB tracks it (guard_collector_chdb_memory_bytes). */
      collectorChdb: number[]
    }[] = []
    let phase: 'warmup' | 'measured' = 'warmup'
    const sample = async () => {
      const collectorMetrics = await Promise.all(
        collectors.map(async (collector) => (await fetch(new URL('/metrics', collector.url), { headers })).text()),
      )
      rssSamples.push({
        at: Date.now() - allScheduledAt,
        phase,
        collectors: await Promise.all(collectors.map((collector) => rssBytes(collector.process.child.pid!))),
        probes: await Promise.all(probes.map((probe) => rssBytes(probe.process.child.pid!))),
        probeHeap: heapOf(await scrape()),
        collectorLoopP99Ms: collectorMetrics.map(
          (text) => metric(text, 'guard_collector_nodejs_eventloop_lag_p99_seconds') * 1000,
        ),
        collectorHeap: collectorMetrics.map((text) => metric(text, 'guard_collector_nodejs_heap_size_used_bytes')),
        collectorChdb: collectorMetrics.map((text) => metric(text, 'guard_collector_chdb_memory_bytes')),
      })
    }
    await sample()
    const sampler = setInterval(() => void sample().catch(() => {}), SAMPLE_EVERY_MS)
    await sleep(warmupSeconds * 1000)

    phase = 'measured'
    const windowStart = Date.now()
    const probesAtStart = await scrape()
    const cpuAtStart = await Promise.all([...collectors, ...probes].map((each) => cpuMs(each.process.child.pid!)))
    const serversAtStart = await serversCpuMs(fixture.child.pid!)
    progress(`measuring ${seconds} s`)

    // A light read load on both replicas: the list, one domain's summary, the organization's stats.
    const api = { list: [] as number[], summary: [] as number[], stats: [] as number[], errors: 0 }
    let reading = true
    const reader = (async () => {
      for (let call = 0; reading; call++) {
        const kind = (['list', 'summary', 'stats'] as const)[call % 3]!
        const base = collectors[call % 2]!.url
        const path =
          kind === 'list'
            ? `/api/domains?page=${1 + (call % Math.ceil(monitorsCount / 20))}&limit=20`
            : kind === 'summary'
              ? `/api/domains/${ids[(call * 7919) % ids.length]}/summary`
              : '/api/domains/stats'
        const started = performance.now()
        try {
          const response = await fetch(new URL(path, base), { headers })
          await response.arrayBuffer()
          if (!response.ok) api.errors += 1
        } catch {
          api.errors += 1
        }
        const took = performance.now() - started
        api[kind].push(took)
        await sleep(Math.max(0, 1000 / apiPerSecond - took))
      }
    })()
    await sleep(seconds * 1000)
    reading = false
    await reader
    const windowEnd = Date.now()
    const probesAtEnd = await scrape()
    const cpuAtEnd = await Promise.all([...collectors, ...probes].map((each) => cpuMs(each.process.child.pid!)))
    const serversAtEnd = await serversCpuMs(fixture.child.pid!)
    await sample()
    clearInterval(sampler)
    const loadDuring = loadavg()
    progress('measured; stopping probes')

    for (const probe of probes) await probe.process.stop('SIGTERM', 30_000)
    await watching.stop()
    const fixtureHits = ((await (await fetch(`http://127.0.0.1:${ports[0]}/__hits`)).json()) as { hits: number }).hits

    // The collectors finish the stream, then stop; their stores are read back one process each.
    natsClient = await connect({ servers: nats.url })
    const jsm = await jetstreamManager(natsClient)
    const stream = await jsm.streams.info(RESULTS_STREAM, { subjects_filter: 'results.>' })
    for (let waited = 0; ; waited++) {
      const consumer = await jsm.consumers.info(RESULTS_STREAM, INGEST_DURABLE)
      if (consumer.num_pending === 0 && consumer.num_ack_pending === 0) break
      if (waited > 600) throw new Error(`ingest did not finish: ${consumer.num_pending} pending`)
      await sleep(500)
    }
    for (const collector of collectors) await collector.process.stop('SIGTERM', 30_000)
    progress('collectors stopped; reading their stores')
    const stored = new Map<string, { monitorId: string; location: string; at: number; copies: number }>()
    let storedRows = 0
    const perReplica: number[] = []
    for (const collector of collectors) {
      const out = join(collector.dataDir, 'results.tsv')
      await runToEnd([new URL('./read-store.ts', import.meta.url).pathname, collector.dataDir, 'guard', out])
      const lines = (await readFile(out, 'utf8')).split('\n').filter(Boolean)
      perReplica.push(lines.length)
      for (const line of lines) {
        const [id, monitorId, location, at] = line.split('\t') as [string, string, string, string]
        storedRows += 1
        const seen = stored.get(id)
        if (seen) seen.copies += 1
        else stored.set(id, { monitorId, location, at: Number(at), copies: 1 })
      }
    }

    // Every monitor x location should have run once per interval through the window.
    const runs = new Map<string, number[]>()
    for (const result of stored.values()) {
      const key = `${result.monitorId} ${result.location}`
      const list = runs.get(key) ?? []
      list.push(result.at)
      runs.set(key, list)
    }
    const runsPerPair = (windowEnd - windowStart) / 1000 / intervalSeconds
    const expectedPerPair = Math.floor(runsPerPair)
    let pairsShort = 0
    let inWindow = 0
    let maxGapMs = 0
    for (const times of runs.values()) {
      times.sort((a, b) => a - b)
      const within = times.filter((at) => at >= windowStart && at < windowEnd)
      inWindow += within.length
      if (within.length < expectedPerPair) pairsShort += 1
      for (let index = 1; index < times.length; index++) {
        if (times[index]! >= windowStart && times[index - 1]! < windowEnd) {
          maxGapMs = Math.max(maxGapMs, times[index]! - times[index - 1]!)
        }
      }
    }
    const pairs = monitorsCount * LOCATIONS.length
    const lag = lagFigures(
      histogram(probesAtStart.join('\n'), 'guard_probe_schedule_lag_seconds'),
      histogram(probesAtEnd.join('\n'), 'guard_probe_schedule_lag_seconds'),
    )
    const windowSeconds = (windowEnd - windowStart) / 1000
    const measuredHeartbeats = heartbeats.filter(
      (beat) => beat.receivedAt >= windowStart && beat.receivedAt <= windowEnd,
    )
    const heartbeatP99 = measuredHeartbeats.map((beat) => beat.scheduleLagP99Ms)
    const inFlight = measuredHeartbeats.map((beat) => beat.inFlight)
    const duration = lagFigures(
      histogram(probesAtStart.join('\n'), 'guard_probe_check_duration_seconds'),
      histogram(probesAtEnd.join('\n'), 'guard_probe_check_duration_seconds'),
    )
    const checked = probesAtEnd.map((text) => metric(text, 'guard_probe_checks_total'))
    const streamed = stream.state.messages
    const distinctStored = stored.size

    const measuredRss = rssSamples.filter((each) => each.phase === 'measured')
    // Caches and pools keep filling for a few minutes after the warm-up: flat means no growth over the second half.
    const collectorRss = collectors.map((_, index) => {
      const series = measuredRss.map((each) => ({ at: each.at, bytes: each.collectors[index]! }))
      const heap = measuredRss.map((each) => ({ at: each.at, bytes: each.collectorHeap[index]! }))
      const chdb = measuredRss.map((each) => each.collectorChdb[index]!)
      const half = Math.floor(series.length / 2)
      const medianMB = (values: number[]) => round(percentile(values, 50) / MB)
      const secondHalf = series.slice(half)
      return {
        startMB: round((series[0]?.bytes ?? 0) / MB),
        endMB: round((series.at(-1)?.bytes ?? 0) / MB),
        maxMB: round(Math.max(...series.map((each) => each.bytes)) / MB),
        slopeMBPerMinute: round(slopePerMinute(series) / MB),
        secondHalfSlopeMBPerMinute: round(slopePerMinute(secondHalf) / MB),
        // The heap in use saws with each collection: its lows show what stays, half by half.
        heapLowMB: {
          firstHalf: round(Math.min(...heap.slice(0, half).map((each) => each.bytes)) / MB),
          secondHalf: round(Math.min(...heap.slice(half).map((each) => each.bytes)) / MB),
        },
        // Medians half by half: a ±25 MB band between samples makes the second half's slope noisy.
        rssMedianMB: {
          firstHalf: medianMB(series.slice(0, half).map((each) => each.bytes)),
          secondHalf: medianMB(series.slice(half).map((each) => each.bytes)),
        },
        chdbMedianMB: { firstHalf: medianMB(chdb.slice(0, half)), secondHalf: medianMB(chdb.slice(half)) },
      }
    })
    // With every monitor scheduled: the least heap in use over the measured samples, against the empty probe's.
    const fullHeap = least(measuredRss.map((each) => each.probeHeap))
    const fullRss = least(measuredRss.map((each) => each.probes))
    const probeMemory = probes.map((probe, index) => ({
      location: probe.location,
      rssMB: round(fullRss[index]! / MB),
      heapBytesPerMonitor: Math.round((fullHeap[index]! - emptyHeap[index]!) / monitorsCount),
      rssBytesPerMonitor: Math.round((fullRss[index]! - emptyRss[index]!) / monitorsCount),
    }))
    const apiFigures = (values: number[]) => ({
      requests: values.length,
      p50Ms: round(percentile(values, 50), 3),
      p99Ms: round(percentile(values, 99), 3),
      maxMs: round(Math.max(0, ...values), 3),
    })
    const allApi = [...api.list, ...api.summary, ...api.stats]
    const cpuShare = (index: number) => round((cpuAtEnd[index]! - cpuAtStart[index]!) / 1000 / windowSeconds, 3)

    return {
      bench: 'scale',
      conditions: {
        cores: availableParallelism(),
        loadAverageBefore: loadBefore.map((value) => round(value, 3)),
        loadAverageAtEnd: loadDuring.map((value) => round(value, 3)),
        note: 'load averages include everything else running on the machine; above the core count, processes waited for CPU',
      },
      monitors: monitorsCount,
      locations: LOCATIONS,
      intervalSeconds,
      measuredSeconds: round(windowSeconds),
      warmupSeconds,
      seedSeconds: round(seedSeconds),
      lag: {
        ...lag,
        goalMs: LAG_GOAL_MS,
        met: (lag.shareWithin500Ms ?? 0) >= 0.99,
        heartbeatP99MaxMs: Math.max(0, ...heartbeatP99),
        heartbeatP99MedianMs: percentile(heartbeatP99, 50),
      },
      results: {
        expectedInWindow: Math.round(pairs * runsPerPair),
        storedInWindow: inWindow,
        pairsWithAMissingRun: pairsShort,
        maxGapBetweenRunsMs: maxGapMs,
        checkedByProbesAtWindowEnd: checked.reduce((sum, value) => sum + value, 0),
        servedByFixture: fixtureHits,
        streamed,
        storedDistinct: distinctStored,
        storedRows,
        storedPerReplica: perReplica,
        lost: streamed - distinctStored,
        met: streamed === distinctStored && pairsShort === 0,
      },
      collectors: {
        rss: collectorRss,
        cpuShareOfOneCore: collectors.map((_, index) => cpuShare(index)),
        // prom-client resets the delay histogram at each scrape: one p99 per 15 s sample.
        eventLoopDelayP99Ms: collectors.map((_, index) => {
          const p99s = measuredRss.map((each) => each.collectorLoopP99Ms[index]!)
          return { median: round(percentile(p99s, 50), 3), max: round(Math.max(0, ...p99s), 3) }
        }),
        flat: collectorRss.every(
          (each) => each.secondHalfSlopeMBPerMinute * (windowSeconds / 120) < 0.05 * each.startMB,
        ),
      },
      probes: {
        concurrency: probeConcurrency,
        checksInFlight: { median: percentile(inFlight, 50), max: Math.max(0, ...inFlight) },
        checkDuration: {
          shareWithin100Ms: duration.shareWithin100Ms,
          shareWithin500Ms: duration.shareWithin500Ms,
          p99AtMostMs: duration.p99AtMostMs,
        },
        memory: probeMemory,
        cpuShareOfOneCore: probes.map((_, index) => cpuShare(collectors.length + index)),
      },
      // Ended processes' CPU leaves the sums (a PostgreSQL backend that closed): shares are lower bounds.
      serversCpuShareOfOneCore: Object.fromEntries(
        Object.entries(serversAtEnd).map(([name, ms]) => [
          name,
          round((ms - serversAtStart[name as keyof typeof serversAtStart]) / 1000 / windowSeconds, 3),
        ]),
      ),
      api: {
        perSecond: apiPerSecond,
        errors: api.errors,
        all: apiFigures(allApi),
        list: apiFigures(api.list),
        summary: apiFigures(api.summary),
        stats: apiFigures(api.stats),
        goalMs: API_GOAL_MS,
        met: percentile(allApi, 99) < API_GOAL_MS && api.errors === 0,
      },
      rssSamples: rssSamples.map((each) => ({
        atSeconds: Math.round(each.at / 1000),
        phase: each.phase,
        collectorsMB: each.collectors.map((bytes) => round(bytes / MB)),
        collectorLoopP99Ms: each.collectorLoopP99Ms.map((ms) => round(ms, 3)),
        collectorsHeapMB: each.collectorHeap.map((bytes) => round(bytes / MB)),
        collectorsChdbMB: each.collectorChdb.map((bytes) => round(bytes / MB)),
        probesMB: each.probes.map((bytes) => round(bytes / MB)),
      })),
      wallSeconds: Math.round((Date.now() - startedAt) / 1000),
    }
  } finally {
    await natsClient?.close()
    await bus?.close()
    await Promise.all(processes.map((child) => child.stop('SIGKILL')))
    fixture.child.kill('SIGTERM')
    await nats.stop()
    await postgres.stop()
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  }
}

process.stdout.write(`${JSON.stringify(await runScaleBench(), null, 2)}\n`)
