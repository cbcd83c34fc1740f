import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Bus, createNatsBus, encodeCheckResult, guardStreams, resultSubject } from '@guard/shared'
import {
  type ClickHouseDouble,
  freePort,
  sampleCheckResult,
  startClickHouseDouble,
  startNatsServer,
} from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorClient, eventually } from './support/collector-client.ts'
import { type GuardProcess, seedDataDir, spawnGuard } from './support/spawn-guard.ts'

const nats = await startNatsServer()

/**
 * The collector's CLICKHOUSE_URL path, end to end: a collector process whose time-series store is
 * "a ClickHouse server" (the HTTP double over chDB in this process) migrates, stores results it
 * takes from the bus and reads them back through its API, every query over HTTP.
 */
describe.skipIf(!nats)('a collector on CLICKHOUSE_URL', () => {
  let double: ClickHouseDouble
  let collector: GuardProcess
  let publisher: Bus
  let dataDir: string
  const database = `t_${randomBytes(6).toString('hex')}`

  beforeAll(async () => {
    double = await startClickHouseDouble({ user: 'guard', password: 'clickhouse-secret' })
    dataDir = await mkdtemp(join(tmpdir(), 'guard-clickhouse-url-'))
    await seedDataDir(dataDir)
    collector = spawnGuard(['collector'], {
      NATS_URL: nats!.url,
      GUARD_DATA_DIR: dataDir,
      GUARD_COLLECTOR_PORT: String(await freePort()),
      CLICKHOUSE_URL: double.url,
      CLICKHOUSE_USER: 'guard',
      CLICKHOUSE_PASSWORD: 'clickhouse-secret',
      CLICKHOUSE_DATABASE: database,
      GUARD_INGEST_MAX_WAIT_MS: '50',
    })
    await collector.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 150_000)
    publisher = await createNatsBus({ servers: nats!.url, name: 'clickhouse-url-publisher', streams: guardStreams })
  }, 200_000)

  afterAll(async () => {
    await publisher?.close()
    await collector?.stop('SIGTERM')
    await double?.close()
    await nats?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('stores results from the bus in ClickHouse and reads them back through the API', async () => {
    const output = collector.output()
    const url = output.match(/collector: (http:\/\/127\.0\.0\.1:\d+)/)![1]!
    const api = collectorClient(url, output.match(/api key: (guard_\S+)/)![1]!)
    const created = await api.post('/api/domains', { url: 'https://clickhouse-url.example', checkInterval: 3600 })
    expect(created.status).toBe(201)
    const monitorId = (created.body.data as { id: string }).id
    const published: string[] = []
    for (let index = 0; index < 30; index++) {
      const result = sampleCheckResult(monitorId, {
        startedAt: new Date(Date.now() - 60_000 + index * 1000).toISOString(),
        responseTimeMs: 100 + index,
        status: index % 10 === 9 ? 'down' : 'up',
      })
      await publisher.publish(resultSubject('fra'), encodeCheckResult(result), { msgId: result.id })
      published.push(result.id)
    }
    const history = await eventually(
      async () => {
        const { body } = await api.get(`/api/domains/${monitorId}/monitoring/history?range=1h&limit=1000`)
        const rows = body.data as Array<{ id: string }>
        return rows.length >= published.length ? rows : undefined
      },
      'the API reading every result back from ClickHouse',
      30_000,
    )
    expect(history.map((row) => row.id).sort()).toEqual([...published].sort())
    const stats = await api.get(`/api/domains/${monitorId}/monitoring/locations`)
    expect(stats.status).toBe(200)
    expect(Object.keys(stats.body.data as object)).toEqual(['fra'])
    // Every one of those reads and writes went over HTTP to the double, into the configured database.
    expect(double.requests.query).toBeGreaterThan(0)
    const tables = await fetch(`${double.url}/?database=${database}`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('guard:clickhouse-secret')}` },
      body: 'SELECT count() FROM check_results',
    })
    expect((await tables.text()).trim()).toBe(String(published.length))
  }, 60_000)
})
