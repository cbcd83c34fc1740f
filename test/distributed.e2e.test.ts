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
import { startReceiver } from '../collector/src/test-support.ts'
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
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_DELIVERY_BASE_DELAY_MS: '100',
      GUARD_DELIVERY_POLL_MS: '100',
      GUARD_DELIVERY_LEASE_SECONDS: '2',
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
        // The probes check a new monitor at once too: only the results published here are counted.
        const ours = new Set(published)
        const seen = (body.data as Array<{ id: string }>).map((entry) => entry.id).filter((id) => ours.has(id))
        return seen.length >= total ? seen : undefined
      },
      `${total} results after the restart`,
      60_000,
    )
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.sort()).toEqual([...published].sort())
    await publisher.close()
  }, 180_000)

  it('opens one incident when both locations see the target fail, notifies once, and resolves it on recovery', async () => {
    const receiver = await startReceiver()
    const settings = await api.put('/api/notifications/settings', { webhookUrl: receiver.url })
    expect(settings.status).toBe(200)
    const target = await startFixtureServer()
    const created = await api.post('/api/domains', { url: target.url, name: 'Flaky', checkInterval: 5 })
    const id = (created.body.data as { id: string }).id
    const incidentsOf = async () =>
      (
        (await api.get('/api/incidents?limit=100')).body.data as Array<{
          id: string
          monitorId: string
          status: string
        }>
      ).filter((incident) => incident.monitorId === id)
    await eventually(
      async () => ((await api.get(`/api/domains/${id}`)).body.data as { status: string }).status === 'up' || undefined,
      'up',
      45_000,
    )
    target.setStatus(500)
    const [incident] = await eventually(
      async () => {
        const open = await incidentsOf()
        return open.length > 0 ? open : undefined
      },
      'an incident',
      60_000,
    )
    const detail = (await api.get(`/api/incidents/${incident!.id}`)).body.data as {
      updates: Array<{ message: string }>
    }
    expect(detail.updates[0]!.message).toMatch(
      /^Down from fra, iad \(2 of 2 locations\)|^Down from (fra|iad) \(1 of 2 locations\)/,
    )
    target.setStatus(200)
    await eventually(
      async () => ((await incidentsOf())[0]?.status === 'resolved' ? true : undefined),
      'recovery',
      60_000,
    )
    expect(await incidentsOf()).toHaveLength(1)
    await eventually(async () => (receiver.received.length >= 2 ? true : undefined), 'two webhooks', 30_000)
    const types = receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type)
    expect(types).toEqual(['incident.opened', 'incident.resolved'])
    // Deleted before its target goes away: a monitor down again this soon reopens its incident,
    // which is announced, and the next test counts every delivery.
    expect((await api.delete(`/api/domains/${id}`)).status).toBe(200)
    await target.close()
    await receiver.close()
  }, 180_000)

  it('sends every pending delivery after the collector is SIGKILLed mid-delivery, none twice to a receiver that answered 200', async () => {
    const answeredBeforeKill = 5
    const total = 20
    const receiver = await startReceiver([200], { holdAfter: answeredBeforeKill })
    await api.put('/api/notifications/settings', { webhookUrl: receiver.url })
    const before = new Set(
      ((await api.get('/api/notifications/deliveries?limit=200')).body.data as Array<{ id: string }>).map((d) => d.id),
    )
    for (let index = 0; index < total; index += 1) {
      expect((await api.post('/api/incidents', { title: `Crash ${index}` })).status).toBe(201)
    }
    const ours = async () =>
      (
        (await api.get('/api/notifications/deliveries?limit=200')).body.data as Array<{ id: string; status: string }>
      ).filter((delivery) => !before.has(delivery.id))
    await eventually(
      async () =>
        (await ours()).filter((d) => d.status === 'delivered').length >= answeredBeforeKill && receiver.held() > 0
          ? true
          : undefined,
      'the first deliveries answered and the rest in flight',
      30_000,
    )
    await collector.stop('SIGKILL')
    const delivered = new Set(receiver.received.map((r) => r.headers['webhook-id']))
    expect(delivered.size).toBe(answeredBeforeKill)
    receiver.dropHeld()
    await startCollector()
    const final = await eventually(
      async () => {
        const log = await ours()
        return log.length === total && log.every((d) => d.status === 'delivered') ? log : undefined
      },
      'every delivery sent after the restart',
      60_000,
    )
    const ids = receiver.received.map((r) => r.headers['webhook-id']!)
    expect(new Set(ids).size).toBe(total)
    expect(new Set(ids)).toEqual(new Set(final.map((d) => d.id)))
    for (const id of delivered) expect(ids.filter((seen) => seen === id)).toHaveLength(1)
    await receiver.close()
  }, 180_000)
})
