import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectorEnvSchema, type RunningCollector, startCollector } from '@guard/collector'
import { parseIdentityEnv, type RunningIdentity, startIdentity } from '@guard/identity'
import { parseProbeEnv, startProbe as startProbeInProcess } from '@guard/probe'
import {
  type Bus,
  createLogger,
  createNatsBus,
  guardStreams,
  openRelationalStore,
  type RelationalStore,
  type TimeSeriesStore,
} from '@guard/shared'
import { freePort, openTestTimeSeriesStore, startNatsServer, startPostgres } from '@guard/shared/testing'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorClient, eventually } from '../support/collector-client.ts'
import { type GuardProcess, spawnGuard } from '../support/spawn-guard.ts'

/**
 * Fault matrix of distributed mode: real nats-server and PostgreSQL started here, chDB as the
 * time-series store, two probe processes (fra, iad) checking 10 local targets every 5 s, two
 * collector replicas and identity in this process (so the time-series store can fail on demand
 * behind its interface, and both replicas share one chDB), and for the clock-skew fault a third
 * probe in this process whose clock runs five minutes ahead. Outages last 12 s, not minutes: long
 * enough for several check rounds, ack waits (3 s here) and retries to happen inside them.
 */
const OUTAGE_MS = 12_000
const ACK_WAIT_MS = 3000
const MONITORS = 10
const RECOVERY_BOUND_MS = 30_000

const nats = await startNatsServer()
const postgres = await startPostgres()

interface Figures {
  /** Checks the probes made while the fault lasted. */
  checkedDuringFault: number
  /** Checks of the whole run so far, and how many of them are stored, once recovered. */
  checkedSoFar: number
  storedSoFar: number
  /** From the end of the fault until everything checked before its end is stored. */
  recoveryMs: number
}

describe.skipIf(!nats || !postgres)('fault matrix, distributed mode', () => {
  const log = createLogger({ name: 'faults', level: 'silent', pretty: false })
  const dirs: string[] = []
  const probes = new Map<string, GuardProcess>()
  const probeEnv = new Map<string, Record<string, string>>()
  const figures: Record<string, Figures> = {}
  let fixture: Server
  let fixtureUrl: string
  let checks = 0
  let timeseries: TimeSeriesStore
  const sqlStores: RelationalStore[] = []
  const buses: Bus[] = []
  const replicas: RunningCollector[] = []
  let identity: RunningIdentity
  let api: ReturnType<typeof collectorClient>
  const domains: string[] = []
  const faults = { timeseriesDown: false, stallReplicaB: false, stalled: false }
  let skewTargetFails = false
  let skewFigures: Record<string, number> = {}

  const tempDir = async (name: string) => {
    const dir = await mkdtemp(join(tmpdir(), `guard-faults-${name}-`))
    dirs.push(dir)
    return dir
  }

  /** The time-series store as one replica sees it: inserts fail or stall when the test says so. */
  const faultyTimeseries = (store: TimeSeriesStore, replica: 'a' | 'b'): TimeSeriesStore => {
    const client = Object.assign(Object.create(store.client), {
      insert: async (params: Parameters<TimeSeriesStore['client']['insert']>[0]) => {
        if (faults.timeseriesDown) throw new Error('ClickHouse unavailable (injected)')
        if (replica === 'b' && faults.stallReplicaB) {
          // Frozen like a SIGSTOPped process: no working(), no ack, past the ack wait.
          faults.stallReplicaB = false
          faults.stalled = true
          await new Promise((resolve) => setTimeout(resolve, ACK_WAIT_MS * 2))
        }
        return store.client.insert(params)
      },
    }) as TimeSeriesStore['client']
    return { ...store, client }
  }

  const storedIds = async () => {
    const result = await timeseries.client.query({
      query: 'SELECT id FROM check_results FINAL WHERE monitor_id IN {ids:Array(String)}',
      query_params: { ids: domains },
      format: 'JSONEachRow',
    })
    return ((await result.json()) as Array<{ id: string }>).map((row) => row.id)
  }
  const storedCount = async () => (await storedIds()).length

  const ackFloor = async () => {
    const nc = await connect({ servers: nats!.url })
    try {
      const jsm = await jetstreamManager(nc)
      return (await jsm.consumers.info('RESULTS', 'collector-ingest')).ack_floor.stream_seq
    } finally {
      await nc.close()
    }
  }

  /** Waits until everything checked before `checkedAtEnd` is stored; the time that took. */
  const recovery = async (checkedAtEnd: number, since: number) => {
    await eventually(
      async () => ((await storedCount()) >= checkedAtEnd ? true : undefined),
      'the stored results to catch up',
      RECOVERY_BOUND_MS,
      200,
    )
    return Date.now() - since
  }

  const figuresOf = async (checkedBefore: number, checkedAtEnd: number, recoveryMs: number): Promise<Figures> => ({
    checkedDuringFault: checkedAtEnd - checkedBefore,
    checkedSoFar: checkedAtEnd,
    storedSoFar: await storedCount(),
    recoveryMs,
  })

  const startProbe = async (location: string) => {
    const child = spawnGuard(['probe', '--location', location], probeEnv.get(location)!)
    probes.set(location, child)
    await child.waitFor(new RegExp(`probe: ${location}`), 60_000)
  }

  beforeAll(async () => {
    fixture = createServer((request, response) => {
      const skewTarget = request.url?.includes('m=skew') ?? false
      // The collector's title fetch is no check; the clock-skew target is counted apart.
      if (!skewTarget && !String(request.headers['user-agent']).startsWith('GuardCollector')) checks += 1
      response
        .writeHead(skewTarget && skewTargetFails ? 500 : 200, { 'content-type': 'text/html' })
        .end('<title>t</title>ok')
    })
    await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve))
    fixtureUrl = `http://127.0.0.1:${(fixture.address() as { port: number }).port}/`

    timeseries = await openTestTimeSeriesStore()
    const collectorEnv = collectorEnvSchema.parse({
      NATS_URL: nats!.url,
      DATABASE_URL: postgres!.url,
      GUARD_COLLECTOR_PORT: '0',
      GUARD_INGEST_MAX_WAIT_MS: '200',
      GUARD_INGEST_ACK_WAIT_MS: String(ACK_WAIT_MS),
      GUARD_RATE_LIMIT_READ: '1000000',
      GUARD_RATE_LIMIT_WRITE: '1000000',
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
    })
    for (const replica of ['a', 'b'] as const) {
      const sql = await openRelationalStore({ databaseUrl: postgres!.url, dataDir: '/nonexistent' })
      const bus = await createNatsBus({ servers: nats!.url, name: `collector-${replica}`, streams: guardStreams })
      sqlStores.push(sql)
      buses.push(bus)
      replicas.push(
        await startCollector({ env: collectorEnv, log, sql, bus, timeseries: faultyTimeseries(timeseries, replica) }),
      )
    }
    const apiKey = replicas[0]!.bootstrapApiKey ?? replicas[1]!.bootstrapApiKey
    api = collectorClient(replicas[0]!.url, apiKey!)

    const identitySql = await openRelationalStore({ databaseUrl: postgres!.url, dataDir: '/nonexistent' })
    sqlStores.push(identitySql)
    identity = await startIdentity({
      env: parseIdentityEnv({
        DATABASE_URL: postgres!.url,
        GUARD_IDENTITY_PORT: '0',
        GUARD_DATA_DIR: await tempDir('identity'),
        GUARD_SECRET_KEY: 'fault-matrix-secret-key-fault-matrix-secret',
        LOG_LEVEL: 'silent',
      }),
      log,
      sql: identitySql,
    })

    for (const location of ['fra', 'iad']) {
      probeEnv.set(location, {
        NATS_URL: nats!.url,
        GUARD_DATA_DIR: await tempDir(`probe-${location}`),
        GUARD_ALLOW_PRIVATE_TARGETS: '1',
        // Two probes on one host: each its own metrics port.
        GUARD_PROBE_METRICS_PORT: String(await freePort()),
      })
      await startProbe(location)
    }
    for (let index = 0; index < MONITORS; index++) {
      const created = await api.post('/api/domains', { url: `${fixtureUrl}?m=${index}`, checkInterval: 5 })
      expect(created.status).toBe(201)
      domains.push((created.body.data as { id: string }).id)
    }
    // Both locations reporting before any fault.
    await eventually(async () => ((await storedCount()) >= MONITORS * 2 ? true : undefined), 'first results', 30_000)
  }, 180_000)

  afterAll(async () => {
    await Promise.all([...probes.values()].map((child) => child.stop('SIGKILL')))
    for (const replica of replicas) await replica.close().catch(() => undefined)
    await identity?.close().catch(() => undefined)
    for (const bus of buses) await bus.close().catch(() => undefined)
    for (const sql of sqlStores) await sql.close().catch(() => undefined)
    await timeseries?.close()
    await new Promise((resolve) => fixture?.close(resolve))
    await nats?.stop()
    await postgres?.stop()
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
    console.info(JSON.stringify({ faultMatrix: figures, clockSkew: skewFigures }))
  })

  it('nats-server restarted while results flow, a probe restarted during the outage: probes spool, ingest resumes', async () => {
    const checkedBefore = checks
    await nats!.stopKeepingData()
    const started = Date.now()
    const fraHealth = `http://127.0.0.1:${probeEnv.get('fra')!.GUARD_PROBE_METRICS_PORT}/healthz`
    const degraded = await eventually(
      async () => {
        const response = await fetch(fraHealth)
        const body = (await response.json()) as { status: string }
        return body.status === 'degraded' ? response.status : undefined
      },
      'the probe to report NATS away',
      10_000,
    )
    expect(degraded).toBe(200)
    // A probe stopped and started again while NATS is away keeps its spooled results on disk.
    expect(await probes.get('fra')!.stop('SIGTERM')).toBe(0)
    await startProbe('fra')
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - started))))
    await nats!.start()
    const ended = Date.now()
    const checkedAtEnd = checks
    const recoveryMs = await recovery(checkedAtEnd, ended)
    figures.natsRestart = await figuresOf(checkedBefore, checkedAtEnd, recoveryMs)
    expect(recoveryMs).toBeLessThan(RECOVERY_BOUND_MS)
  }, 90_000)

  it('PostgreSQL stopped: API 503 with Retry-After, ingest holds its acks and resumes, identity serves the static catalog', async () => {
    const checkedBefore = checks
    await postgres!.stopKeepingData()
    const started = Date.now()
    const refused = await eventually(
      async () => {
        const response = await fetch(`${replicas[0]!.url}/api/domains`, {
          headers: { authorization: 'Bearer guard_not_a_real_key_but_pg_is_down' },
        })
        return response.status === 503 ? response : undefined
      },
      'a 503 from the API',
      10_000,
    )
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(await refused.json()).toMatchObject({ success: false, error: 'SERVICE_UNAVAILABLE' })
    const health = await eventually(
      async () => {
        const response = await fetch(`${replicas[0]!.url}/api/health`)
        return response.status === 503 ? ((await response.json()) as { checks: Record<string, string> }) : undefined
      },
      'collector health 503',
      10_000,
    )
    expect(health.checks).toMatchObject({ relational: 'down', bus: 'up', timeseries: 'up' })
    const plans = (await (await fetch(`${identity.url}/api/v1/plans`)).json()) as { source: string }
    expect(plans.source).toBe('static')
    expect((await fetch(`${identity.url}/api/v1/health`)).status).toBe(200)
    const floorDuring = await ackFloor()
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - started))))
    // Checks kept coming, nothing was acked: the state machine could not run.
    expect(await ackFloor()).toBe(floorDuring)
    await postgres!.start()
    const ended = Date.now()
    const checkedAtEnd = checks
    await eventually(
      async () => ((await fetch(`${replicas[0]!.url}/api/health`)).status === 200 ? true : undefined),
      'collector health 200 again',
      RECOVERY_BOUND_MS,
    )
    const recoveryMs = await recovery(checkedAtEnd, ended)
    expect((await api.get('/api/domains')).status).toBe(200)
    figures.postgresStopped = await figuresOf(checkedBefore, checkedAtEnd, recoveryMs)
    expect(recoveryMs).toBeLessThan(RECOVERY_BOUND_MS)
  }, 90_000)

  it('time-series store failing inserts: nothing acked, nothing lost', async () => {
    const checkedBefore = checks
    const storedBefore = await storedCount()
    faults.timeseriesDown = true
    const started = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const floorDuring = await ackFloor()
    const storedDuring = await storedCount()
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - started))))
    expect(await ackFloor()).toBe(floorDuring)
    expect(await storedCount()).toBe(storedDuring)
    expect(storedDuring - storedBefore).toBeLessThanOrEqual(MONITORS * 2)
    faults.timeseriesDown = false
    const ended = Date.now()
    const checkedAtEnd = checks
    const recoveryMs = await recovery(checkedAtEnd, ended)
    figures.timeseriesFailing = await figuresOf(checkedBefore, checkedAtEnd, recoveryMs)
    expect(recoveryMs).toBeLessThan(RECOVERY_BOUND_MS)
  }, 90_000)

  it('a replica frozen past the ack wait while the other runs: no result twice in history', async () => {
    const checkedBefore = checks
    faults.stallReplicaB = true
    await eventually(async () => (faults.stalled ? true : undefined), 'replica b to freeze on a batch', 20_000)
    const started = Date.now()
    await new Promise((resolve) => setTimeout(resolve, ACK_WAIT_MS * 3))
    const checkedAtEnd = checks
    const recoveryMs = await recovery(checkedAtEnd, started)
    const ids = await storedIds()
    expect(ids.length).toBe(new Set(ids).size)
    figures.replicaFrozen = await figuresOf(checkedBefore, checkedAtEnd, recoveryMs)
  }, 60_000)

  it('a probe clock 5 minutes ahead: each location is ordered by its own clock, quorum and incidents still work', async () => {
    const skewMs = 5 * 60_000
    const created = await api.post('/api/domains', { url: `${fixtureUrl}?m=skew`, checkInterval: 5 })
    const id = (created.body.data as { id: string }).id
    const bus = await createNatsBus({ servers: nats!.url, name: 'probe-skw', streams: guardStreams })
    const skewed = await startProbeInProcess({
      env: parseProbeEnv({
        NATS_URL: nats!.url,
        GUARD_PROBE_LOCATION: 'skw',
        GUARD_DATA_DIR: await tempDir('probe-skw'),
        GUARD_ALLOW_PRIVATE_TARGETS: '1',
      }),
      log,
      bus,
      now: () => Date.now() + skewMs,
    })
    try {
      const detail = async () => (await api.get(`/api/domains/${id}`)).body.data as { status: string }
      const history = async () =>
        (await api.get(`/api/domains/${id}/monitoring/history?range=1h&limit=1000`)).body.data as Array<{
          timestamp: string
        }>
      // Three locations report, one of them five minutes ahead.
      await eventually(
        async () => {
          const locations = Object.keys((await api.get(`/api/domains/${id}/monitoring/locations`)).body.data as object)
          return locations.length === 3 ? locations : undefined
        },
        'results from fra, iad and the skewed skw',
        30_000,
      )
      expect((await detail()).status).toBe('up')
      const ahead = (await history()).filter((entry) => Date.parse(entry.timestamp) > Date.now() + skewMs / 2)
      expect(ahead.length).toBeGreaterThan(0)
      // The target fails for every location: down, though one location's clock says it is later.
      skewTargetFails = true
      const downAfterMs = Date.now()
      await eventually(async () => ((await detail()).status === 'down' ? true : undefined), 'the domain down', 30_000)
      const downInMs = Date.now() - downAfterMs
      // Back up: the on-time locations' newer results are not stale next to the skewed ones.
      skewTargetFails = false
      const upAfterMs = Date.now()
      await eventually(async () => ((await detail()).status === 'up' ? true : undefined), 'the domain up again', 30_000)
      skewFigures = { downInMs, upInMs: Date.now() - upAfterMs, resultsAhead: ahead.length }
    } finally {
      await skewed.close()
      await bus.close()
    }
  }, 120_000)

  it('every check of the run is stored exactly once; probes and collectors close cleanly', async () => {
    // SIGTERM: each probe finishes its checks in flight and hands their results over.
    for (const [location, child] of probes) expect(await child.stop('SIGTERM', 20_000), location).toBe(0)
    const checked = checks
    await recovery(checked, Date.now())
    const ids = await storedIds()
    const rows = await timeseries.client.query({
      query: 'SELECT count() AS rows FROM check_results WHERE monitor_id IN {ids:Array(String)}',
      query_params: { ids: domains },
      format: 'JSONEachRow',
    })
    const rawRows = ((await rows.json()) as Array<{ rows: string }>)[0]?.rows
    const rollups = await timeseries.client.query({
      query: 'SELECT sum(checks) AS checks FROM check_results_1m WHERE monitor_id IN {ids:Array(String)}',
      query_params: { ids: domains },
      format: 'JSONEachRow',
    })
    const rolledUp = ((await rollups.json()) as Array<{ checks: string }>)[0]?.checks
    console.info(
      JSON.stringify({
        faultMatrixTotal: {
          checked,
          stored: ids.length,
          lost: checked - ids.length,
          duplicatedInHistory: ids.length - new Set(ids).size,
          rawRows: Number(rawRows),
          rollupChecks: Number(rolledUp),
        },
      }),
    )
    expect(ids.length).toBe(checked)
    expect(new Set(ids).size).toBe(ids.length)
    const closing = Date.now()
    for (const replica of replicas.splice(0)) await replica.close()
    expect(Date.now() - closing).toBeLessThan(10_000)
  }, 90_000)
})
