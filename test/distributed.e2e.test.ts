import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Bus,
  type CheckResult,
  createNatsBus,
  encodeCheckResult,
  guardStreams,
  resultSubject,
} from '@guard/shared'
import { freePort, sampleCheckResult, startNatsServer, startPostgres } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorClient, eventually } from './support/collector-client.ts'
import { type FixtureServer, startFixtureServer } from './support/fixture-server.ts'
import { type GuardProcess, spawnGuard } from './support/spawn-guard.ts'

const nats = await startNatsServer()
const postgres = await startPostgres()

describe.skipIf(!nats || !postgres)('distributed mode: separate processes over NATS and PostgreSQL', () => {
  const processes: GuardProcess[] = []
  const dirs: string[] = []
  let fixture: FixtureServer
  let collectorEnv: Record<string, string>
  let collector: GuardProcess
  let apiKey: string
  let api: ReturnType<typeof collectorClient>

  const tempDir = async (name: string) => {
    const dir = await mkdtemp(join(tmpdir(), `guard-${name}-`))
    dirs.push(dir)
    return dir
  }
  const start = (args: string[], env: Record<string, string>) => {
    const child = spawnGuard(args, env)
    processes.push(child)
    return child
  }
  const startCollector = async () => {
    collector = start(['collector'], collectorEnv)
    await collector.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 120_000)
  }

  beforeAll(async () => {
    fixture = await startFixtureServer()
    const port = await freePort()
    collectorEnv = {
      NATS_URL: nats!.url,
      DATABASE_URL: postgres!.url,
      GUARD_DATA_DIR: await tempDir('collector'),
      GUARD_COLLECTOR_PORT: String(port),
    }
    await startCollector()
    apiKey = collector.output().match(/api key: (guard_\S+)/)![1]!
    api = collectorClient(`http://127.0.0.1:${port}`, apiKey)
    for (const location of ['fra', 'iad']) {
      const probe = start(['probe', '--location', location], {
        NATS_URL: nats!.url,
        GUARD_DATA_DIR: await tempDir(`probe-${location}`),
        GUARD_ALLOW_PRIVATE_TARGETS: '1',
      })
      await probe.waitFor(new RegExp(`probe: ${location}`), 60_000)
    }
  })

  afterAll(async () => {
    await Promise.all(processes.map((child) => child.stop('SIGKILL')))
    await fixture?.close()
    await nats?.stop()
    await postgres?.stop()
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  })

  it('shows results from both probe locations', async () => {
    const created = await api.post('/api/domains', { url: fixture.url, name: 'Fixture', checkInterval: 5 })
    expect(created.status).toBe(201)
    const id = (created.body.data as { id: string }).id
    const locations = await eventually(
      async () => {
        const { body } = await api.get(`/api/domains/${id}/monitoring/locations`)
        const seen = Object.keys(body.data as object).sort()
        return seen.length === 2 ? seen : undefined
      },
      'results from fra and iad',
      45_000,
    )
    expect(locations).toEqual(['fra', 'iad'])
  }, 60_000)

  it('loses no acknowledged result and shows none twice when the collector is SIGKILLed mid-ingest', async () => {
    const created = await api.post('/api/domains', { url: 'https://example.org/', name: 'Crash', checkInterval: 3600 })
    const monitorId = (created.body.data as { id: string }).id
    const publisher: Bus = await createNatsBus({ servers: nats!.url, name: 'test-publisher', streams: guardStreams })
    const published: string[] = []
    const sent: CheckResult[] = []
    const total = 400
    const publishOne = async (index: number) => {
      const result = sampleCheckResult(monitorId, {
        startedAt: new Date(Date.now() - (total - index) * 1000).toISOString(),
        responseTimeMs: index,
      })
      await publisher.publish(resultSubject('fra'), encodeCheckResult(result), { msgId: result.id })
      published.push(result.id)
      sent.push(result)
    }
    for (let index = 0; index < total / 2; index += 1) await publishOne(index)
    await collector.stop('SIGKILL')
    for (let index = total / 2; index < total; index += 1) await publishOne(index)
    // A probe retrying a publish it already had acknowledged must not show up twice either.
    for (const result of sent.slice(0, 10)) {
      const ack = await publisher.publish(resultSubject('fra'), encodeCheckResult(result), { msgId: result.id })
      expect(ack.duplicate).toBe(true)
    }
    await startCollector()

    const ids = await eventually(
      async () => {
        const { body } = await api.get(`/api/domains/${monitorId}/monitoring/history?range=1h&limit=1000`)
        const seen = (body.data as Array<{ id: string }>).map((entry) => entry.id)
        return seen.length >= total ? seen : undefined
      },
      `${total} results after the restart`,
      60_000,
    )
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.sort()).toEqual([...published].sort())
    await publisher.close()
  }, 180_000)
})
