import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseProbeEnv, type RunningProbe, startProbe } from '@guard/probe'
import {
  type Bus,
  type CheckResult,
  createLogger,
  createNatsBus,
  createNatsBusInBackground,
  decodeCheckResult,
  encodeMonitorConfig,
  guardStreams,
  MONITORS_BUCKET,
  type MonitorConfig,
  newId,
} from '@guard/shared'
import { type NatsTestServer, startNatsServer } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const log = createLogger({ name: 'probe-outbox-test', level: 'silent' })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitUntil(what: string, done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

const nats = await startNatsServer()

describe.skipIf(!nats)('probe outbox across a NATS outage and a probe restart', () => {
  const server = nats as NatsTestServer
  const hits = new Map<string, number>()
  let target: Server
  let stateDir: string
  let admin: Bus

  beforeAll(async () => {
    target = createServer((request, response) => {
      const path = request.url ?? '/'
      hits.set(path, (hits.get(path) ?? 0) + 1)
      response.end('ok')
    })
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
    stateDir = await mkdtemp(join(tmpdir(), 'guard-probe-outage-'))
    admin = await createNatsBus({ servers: server.url, name: 'outbox-test', streams: guardStreams })
  })
  afterAll(async () => {
    await admin?.close()
    await server.stop()
    target.closeAllConnections()
    await new Promise((resolve) => target.close(resolve))
    await rm(stateDir, { recursive: true, force: true })
  })

  const startTestProbe = async (): Promise<{ probe: RunningProbe; bus: Bus }> => {
    const env = parseProbeEnv({
      GUARD_DATA_DIR: stateDir,
      GUARD_PROBE_STATE_DIR: stateDir,
      GUARD_PROBE_LOCATION: 'fra',
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      LOG_LEVEL: 'silent',
    })
    const bus = createNatsBusInBackground({ servers: server.url, name: 'probe-fra', streams: guardStreams })
    return { probe: await startProbe({ env, log, bus }), bus }
  }

  it('delivers every result exactly once and in order per monitor', async () => {
    const address = target.address()
    const port = typeof address === 'object' && address ? address.port : 0
    const monitors: MonitorConfig[] = ['a', 'b', 'c'].map((name) => ({
      v: 1,
      id: newId(),
      organizationId: 'org',
      target: { kind: 'http', url: `http://127.0.0.1:${port}/${name}`, method: 'GET' },
      intervalSeconds: 5,
      timeoutSeconds: 1,
      locations: ['fra'],
      enabled: true,
    }))
    const kv = await admin.kv(MONITORS_BUCKET)
    for (const monitor of monitors) await kv.put(monitor.id, encodeMonitorConfig(monitor))
    const totalHits = () => [...hits.values()].reduce((sum, count) => sum + count, 0)

    // Running normally: every monitor checked at least once, straight to the stream.
    const first = await startTestProbe()
    await waitUntil('a first check of every monitor', () => hits.size === 3, 8000)

    // NATS goes away while the probe runs: results go to the outbox.
    await server.stopKeepingData()
    const hitsAtOutage = totalHits()
    await waitUntil('checks during the outage', () => totalHits() >= hitsAtOutage + 3, 8000)
    await first.probe.close()
    await first.bus.close()
    const spooledByFirst = first.probe.outboxDepth()
    expect(spooledByFirst).toBeGreaterThan(0)

    // Restarted while NATS is still down: the probe starts, checks its cached monitors, spools.
    const second = await startTestProbe()
    const hitsAtRestart = totalHits()
    await waitUntil('checks by the restarted probe', () => totalHits() >= hitsAtRestart + 3, 8000)
    expect(second.probe.outboxDepth()).toBeGreaterThan(spooledByFirst)

    // NATS comes back: the outbox replays, then the probe stops.
    await server.start()
    await waitUntil('the outbox to empty', () => second.probe.outboxDepth() === 0, 15_000)
    await second.probe.close()
    await second.bus.close()

    const expected = totalHits()
    const received: CheckResult[] = []
    // A fresh connection reads the stream: the setup connection may still be reconnecting.
    const reader = await createNatsBus({ servers: server.url, name: 'outbox-test-reader', streams: guardStreams })
    const consumer = await reader.consume(
      {
        stream: 'RESULTS',
        durable: 'outbox-test',
        filterSubject: 'results.fra',
        maxBatch: 500,
        maxWaitMs: 50,
        ackWaitMs: 10_000,
      },
      async (batch) => {
        for (const message of batch) {
          received.push(decodeCheckResult(message.data))
          await message.ack()
        }
      },
    )
    await waitUntil('every result in the stream', () => received.length >= expected, 10_000)
    // Anything duplicated would arrive right behind; give it the chance to.
    await sleep(500)
    await consumer.stop()
    await reader.close()

    expect(received).toHaveLength(expected)
    expect(new Set(received.map((result) => result.id)).size).toBe(expected)
    for (const monitor of monitors) {
      const starts = received.filter((result) => result.monitorId === monitor.id).map((result) => result.startedAt)
      expect(starts.length).toBe(hits.get(new URL(monitor.target.kind === 'http' ? monitor.target.url : '').pathname))
      expect(starts).toEqual([...starts].sort())
    }
  }, 55_000)
})
