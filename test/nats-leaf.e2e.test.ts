import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { collectorEnvSchema, type RunningCollector, startCollector } from '@guard/collector'
import { parseProbeEnv, type RunningProbe, startProbe } from '@guard/probe'
import { type Bus, createLogger, openBus, type RelationalStore, type TimeSeriesStore } from '@guard/shared'
import {
  NATS_HUB_DOMAIN,
  openMigratedTestRelationalStore,
  openTestTimeSeriesStore,
  startNatsHubAndLeaf,
} from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorClient, eventually } from './support/collector-client.ts'

const COLLECTOR_MIGRATIONS = fileURLToPath(new URL('../collector/migrations/postgres', import.meta.url))

const nats = await startNatsHubAndLeaf()

/**
 * A region's probe talks only to its leaf node, a nats-server without JetStream linked to the hub
 * by one leaf connection; the collector and the streams live on the hub. The probe's publishes,
 * its JetStream API calls and the monitor catalogue it watches all cross that link.
 */
describe.skipIf(!nats)('a probe behind a leaf node', () => {
  const log = createLogger({ name: 'nats-leaf', level: 'silent', pretty: false })
  const buses: Bus[] = []
  let dir: string
  let fixture: Server
  let fixtureUrl: string
  let sql: RelationalStore
  let timeseries: TimeSeriesStore
  let collector: RunningCollector
  let probe: RunningProbe

  beforeAll(async () => {
    fixture = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<title>t</title>ok')
    })
    await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve))
    fixtureUrl = `http://127.0.0.1:${(fixture.address() as { port: number }).port}/`
    sql = await openMigratedTestRelationalStore([{ service: 'collector', directory: COLLECTOR_MIGRATIONS }])
    timeseries = await openTestTimeSeriesStore()
    const collectorEnv = collectorEnvSchema.parse({
      NATS_URL: nats!.hub.url,
      GUARD_COLLECTOR_PORT: '0',
      GUARD_INGEST_MAX_WAIT_MS: '50',
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
    })
    const collectorBus = await openBus(collectorEnv, 'collector')
    buses.push(collectorBus)
    collector = await startCollector({ env: collectorEnv, log, sql, bus: collectorBus, timeseries })

    dir = await mkdtemp(join(tmpdir(), 'guard-leaf-probe-'))
    const probeEnv = parseProbeEnv({
      NATS_URL: nats!.leaf.url,
      GUARD_NATS_DOMAIN: NATS_HUB_DOMAIN,
      GUARD_PROBE_LOCATION: 'syd',
      GUARD_DATA_DIR: dir,
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
    })
    const probeBus = await openBus(probeEnv, 'probe-syd', { connectInBackground: true })
    buses.push(probeBus)
    probe = await startProbe({ env: probeEnv, log, bus: probeBus })
  }, 60_000)

  afterAll(async () => {
    await probe?.close().catch(() => undefined)
    await collector?.close().catch(() => undefined)
    for (const bus of buses) await bus.close().catch(() => undefined)
    await sql?.close()
    await timeseries?.close()
    await new Promise((resolve) => fixture?.close(resolve))
    await nats?.stop()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it("carries the probe's results over the leaf connection to the collector on the hub", async () => {
    const api = collectorClient(collector.url, collector.bootstrapApiKey!)
    const created = await api.post('/api/domains', { url: fixtureUrl, checkInterval: 5 })
    expect(created.status).toBe(201)
    const id = (created.body.data as { id: string }).id
    const locations = await eventually(
      async () => {
        const { body } = await api.get(`/api/domains/${id}/monitoring/locations`)
        const found = Object.keys(body.data as object)
        return found.includes('syd') ? found : undefined
      },
      'a result from the probe behind the leaf node',
      30_000,
    )
    expect(locations).toEqual(['syd'])
    expect(probe.stats.replayed).toBe(0)
  }, 60_000)
})
