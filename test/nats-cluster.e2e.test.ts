import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectorEnvSchema, type RunningCollector, startCollector } from '@guard/collector'
import { parseProbeEnv, type RunningProbe, startProbe } from '@guard/probe'
import {
  type Bus,
  createLogger,
  openBus,
  openRelationalStore,
  RESULTS_STREAM,
  type RelationalStore,
  type TimeSeriesStore,
} from '@guard/shared'
import { openTestTimeSeriesStore, startNatsCluster, startPostgres } from '@guard/shared/testing'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorClient, eventually } from './support/collector-client.ts'

/**
 * Distributed mode on a 3-node JetStream cluster (streams, durables and KV at 3 replicas): two
 * collector replicas and two probe locations in this process, each with its own connection given
 * all three servers, checking 10 local targets every 5 s. The RESULTS stream's leader is SIGKILLed
 * mid-ingest and restarted later. Both replicas share one chDB, standing for the shared ClickHouse.
 */
const MONITORS = 10
const REPLICAS = 3
const RECOVERY_BOUND_MS = 30_000

const cluster = await startNatsCluster(REPLICAS)
const postgres = await startPostgres()

describe.skipIf(!cluster || !postgres)('JetStream cluster, stream leader killed mid-ingest', () => {
  const log = createLogger({ name: 'nats-cluster', level: 'silent', pretty: false })
  const dirs: string[] = []
  const buses: Bus[] = []
  const sqlStores: RelationalStore[] = []
  const collectors: RunningCollector[] = []
  const probes: RunningProbe[] = []
  const domains: string[] = []
  let fixture: Server
  let timeseries: TimeSeriesStore
  let checks = 0

  const storedIds = async () => {
    const result = await timeseries.client.query({
      query: 'SELECT id FROM check_results FINAL WHERE monitor_id IN {ids:Array(String)}',
      query_params: { ids: domains },
      format: 'JSONEachRow',
    })
    return ((await result.json()) as Array<{ id: string }>).map((row) => row.id)
  }
  const storedCount = async () => (await storedIds()).length

  /** The RESULTS stream as the cluster reports it: leader and replicas. */
  const resultsCluster = async () => {
    const nc = await connect({ servers: cluster!.urls.split(',') })
    try {
      const info = await (await jetstreamManager(nc)).streams.info(RESULTS_STREAM)
      return { configured: info.config.num_replicas, ...info.cluster }
    } finally {
      await nc.close()
    }
  }

  beforeAll(async () => {
    fixture = createServer((request, response) => {
      // The collector's title fetch is no check.
      if (!String(request.headers['user-agent']).startsWith('GuardCollector')) checks += 1
      response.writeHead(200, { 'content-type': 'text/html' }).end('<title>t</title>ok')
    })
    await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve))
    const fixtureUrl = `http://127.0.0.1:${(fixture.address() as { port: number }).port}/`
    // A node answers clients before the cluster has elected its JetStream meta leader.
    await eventually(
      async () => {
        const nc = await connect({ servers: cluster!.urls.split(',') })
        try {
          return await (await jetstreamManager(nc)).getAccountInfo()
        } finally {
          await nc.close()
        }
      },
      'the JetStream cluster to elect its leader',
      30_000,
    )

    timeseries = await openTestTimeSeriesStore()
    const collectorEnv = collectorEnvSchema.parse({
      NATS_URL: cluster!.urls,
      GUARD_STREAM_REPLICAS: String(REPLICAS),
      DATABASE_URL: postgres!.url,
      GUARD_COLLECTOR_PORT: '0',
      GUARD_INGEST_MAX_WAIT_MS: '200',
      GUARD_INGEST_ACK_WAIT_MS: '3000',
      GUARD_RATE_LIMIT_READ: '1000000',
      GUARD_RATE_LIMIT_WRITE: '1000000',
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
    })
    for (const replica of ['a', 'b']) {
      const sql = await openRelationalStore({ databaseUrl: postgres!.url, dataDir: '/nonexistent' })
      const bus = await openBus(collectorEnv, `collector-${replica}`)
      sqlStores.push(sql)
      buses.push(bus)
      collectors.push(await startCollector({ env: collectorEnv, log, sql, bus, timeseries }))
    }
    const apiKey = collectors[0]!.bootstrapApiKey ?? collectors[1]!.bootstrapApiKey
    const api = collectorClient(collectors[0]!.url, apiKey!)

    for (const location of ['fra', 'iad']) {
      const dir = await mkdtemp(join(tmpdir(), `guard-cluster-${location}-`))
      dirs.push(dir)
      const env = parseProbeEnv({
        NATS_URL: cluster!.urls,
        GUARD_STREAM_REPLICAS: String(REPLICAS),
        GUARD_PROBE_LOCATION: location,
        GUARD_DATA_DIR: dir,
        GUARD_ALLOW_PRIVATE_TARGETS: '1',
      })
      const bus = await openBus(env, `probe-${location}`, { connectInBackground: true })
      buses.push(bus)
      probes.push(await startProbe({ env, log, bus }))
    }
    for (let index = 0; index < MONITORS; index++) {
      const created = await api.post('/api/domains', { url: `${fixtureUrl}?m=${index}`, checkInterval: 5 })
      expect(created.status).toBe(201)
      domains.push((created.body.data as { id: string }).id)
    }
    await eventually(async () => ((await storedCount()) >= MONITORS * 2 ? true : undefined), 'first results', 30_000)
  }, 120_000)

  afterAll(async () => {
    for (const probe of probes.splice(0)) await probe.close().catch(() => undefined)
    for (const collector of collectors.splice(0)) await collector.close().catch(() => undefined)
    for (const bus of buses) await bus.close().catch(() => undefined)
    for (const sql of sqlStores) await sql.close().catch(() => undefined)
    await timeseries?.close()
    await new Promise((resolve) => fixture?.close(resolve))
    await cluster?.stop()
    await postgres?.stop()
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  })

  it('every result stored exactly once across the leader loss and its return; recovery time reported', async () => {
    const before = await resultsCluster()
    expect(before.configured).toBe(REPLICAS)
    expect((before.replicas?.length ?? 0) + 1).toBe(REPLICAS)
    const leader = cluster!.nodes.find((node) => node.name === before.leader)!
    expect(leader).toBeDefined()

    const storedAtKill = await storedCount()
    const checkedAtKill = checks
    const killedAt = Date.now()
    await leader.kill()
    // The first result stored after the kill, and the moment everything checked before it is in.
    const firstStoredMs = await eventually(
      async () => ((await storedCount()) > storedAtKill ? Date.now() - killedAt : undefined),
      'a result stored after the kill',
      RECOVERY_BOUND_MS,
      100,
    )
    const caughtUpMs = await eventually(
      async () => ((await storedCount()) > checkedAtKill ? Date.now() - killedAt : undefined),
      'everything checked before the kill stored, and one more',
      RECOVERY_BOUND_MS,
      100,
    )
    const during = await resultsCluster()
    expect(during.leader).not.toBe(leader.name)

    // A few check rounds on two nodes, then the killed node comes back on its store and catches up.
    await new Promise((resolve) => setTimeout(resolve, 6000))
    const restartedAt = Date.now()
    await leader.start()
    const rejoinedMs = await eventually(
      async () => {
        const { replicas = [] } = await resultsCluster()
        const back = replicas.find((peer) => peer.name === leader.name)
        return back?.current ? Date.now() - restartedAt : undefined
      },
      'the restarted node current again in the stream',
      RECOVERY_BOUND_MS,
    )
    await new Promise((resolve) => setTimeout(resolve, 3000))

    const stats = probes.map((probe) => probe.stats)
    for (const probe of probes.splice(0)) await probe.close()
    const checked = checks
    await eventually(
      async () => ((await storedCount()) >= checked ? true : undefined),
      'every check stored',
      RECOVERY_BOUND_MS,
      200,
    )
    const ids = await storedIds()
    const rows = await timeseries.client.query({
      query: 'SELECT count() AS rows FROM check_results WHERE monitor_id IN {ids:Array(String)}',
      query_params: { ids: domains },
      format: 'JSONEachRow',
    })
    const rawRows = Number(((await rows.json()) as Array<{ rows: string }>)[0]?.rows)
    const figures = {
      checked,
      stored: ids.length,
      lost: checked - new Set(ids).size,
      duplicated: ids.length - new Set(ids).size,
      rawRows,
      published: stats.reduce((sum, stat) => sum + stat.published, 0),
      replayedFromOutbox: stats.reduce((sum, stat) => sum + stat.replayed, 0),
      firstStoredAfterKillMs: firstStoredMs,
      caughtUpAfterKillMs: caughtUpMs,
      rejoinedAfterRestartMs: rejoinedMs,
      killedLeader: leader.name,
      newLeader: during.leader,
    }
    console.info(JSON.stringify({ natsClusterLeaderKilled: figures }))
    expect(figures.lost).toBe(0)
    expect(figures.duplicated).toBe(0)
    expect(caughtUpMs).toBeLessThan(RECOVERY_BOUND_MS)
  }, 120_000)
})
