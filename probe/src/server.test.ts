import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createTcpServer } from 'node:net'
import {
  type Bus,
  createInProcessBus,
  createLogger,
  decodeCheckResult,
  decodeJson,
  dnsLookupReplyV1,
  encodeJson,
  encodeMonitorConfig,
  geoLookupReplyV1,
  guardStreams,
  MONITORS_BUCKET,
  manualCheckReplyV1,
  manualCheckSubject,
  portScanProgressV1,
  portScanReplyV1,
  probeHeartbeatSubject,
  probeHeartbeatV1,
  type StreamMessage,
  toolboxSubject,
} from '@guard/shared'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { probeHealth, type RunningProbe, startProbe } from './server.ts'
import { type DnsFixture, startDnsFixture } from './testing/dns-server.ts'
import { closeServer, listenLocal } from './testing/fixtures.ts'
import { httpMonitor, testProbeEnv } from './testing/probe-env.ts'

const log = createLogger({ name: 'probe-test', level: 'silent' })

async function waitFor<T>(what: string, read: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = read()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('probe', () => {
  let target: Server
  let base: string
  const hits: Record<string, number> = {}
  let bus: Bus
  let probe: RunningProbe
  let results: StreamMessage[]

  beforeAll(async () => {
    target = createHttpServer((request, response) => {
      const path = request.url ?? '/'
      hits[path] = (hits[path] ?? 0) + 1
      if (path === '/slow') setTimeout(() => response.end('slow'), 600)
      else response.end('ok')
    })
    base = `http://127.0.0.1:${await listenLocal(target)}`
  })
  afterAll(() => closeServer(target))

  beforeEach(async () => {
    bus = createInProcessBus({ streams: guardStreams })
    results = []
    await bus.consume(
      { stream: 'RESULTS', durable: 'test', filterSubject: 'results.>', maxBatch: 100, maxWaitMs: 10, ackWaitMs: 5000 },
      async (batch) => {
        for (const message of batch) {
          results.push(message)
          await message.ack()
        }
      },
    )
    probe = await startProbe({
      env: await testProbeEnv({ GUARD_PROBE_HEARTBEAT_SECONDS: '1' }),
      log,
      bus,
      ops: { host: '127.0.0.1', port: 0 },
    })
  })
  afterEach(async () => {
    await probe.close()
    await bus.close()
  })

  const resultsFor = (monitorId: string) =>
    results.map((message) => decodeCheckResult(message.data)).filter((result) => result.monitorId === monitorId)

  it('picks up added, updated, paused and deleted monitors live from the bucket', async () => {
    const kv = await bus.kv(MONITORS_BUCKET)
    const monitor = httpMonitor(`${base}/live`)
    await kv.put(monitor.id, encodeMonitorConfig(monitor))
    await waitFor('the first result', () => resultsFor(monitor.id)[0], 7000)
    expect(results[0]?.msgId).toBe(resultsFor(monitor.id)[0]?.id)

    await kv.put(monitor.id, encodeMonitorConfig({ ...monitor, target: { kind: 'tcp', host: '127.0.0.1', port: 1 } }))
    await waitFor('a tcp result', () => resultsFor(monitor.id).find((result) => result.kind === 'tcp'), 7000)

    await kv.put(monitor.id, encodeMonitorConfig({ ...monitor, enabled: false }))
    // Let a check that started just before the pause land before counting.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const other = httpMonitor(`${base}/other`)
    await kv.put(other.id, encodeMonitorConfig(other))
    await kv.delete(other.id)
    const countAfterPause = resultsFor(monitor.id).length
    await new Promise((resolve) => setTimeout(resolve, 5500))
    expect(resultsFor(monitor.id).length).toBe(countAfterPause)
    expect(resultsFor(other.id)).toEqual([])
  }, 25_000)

  it('runs a manual check on request at its location and on any, without publishing it', async () => {
    const monitor = httpMonitor(`${base}/manual`, { locations: ['iad'] })
    for (const place of ['fra', 'any']) {
      const reply = decodeJson(
        manualCheckReplyV1,
        await bus.request(manualCheckSubject(place), encodeJson({ v: 1, monitor }), { timeoutMs: 5000 }),
      )
      expect(reply.result).toMatchObject({ monitorId: monitor.id, location: 'fra', status: 'up', statusCode: 200 })
    }
    expect(hits['/manual']).toBe(2)
    expect(results).toEqual([])
  })

  it('answers an invalid request with a message naming the problem', async () => {
    await expect(
      bus.request(manualCheckSubject('fra'), encodeJson({ v: 1, monitor: { id: 'x' } }), { timeoutMs: 5000 }),
    ).rejects.toThrow(/invalid request/)
  })

  it('scans a list of ports, streaming progress events before the final reply', async () => {
    const open = createTcpServer((socket) => socket.end())
    const port = await listenLocal(open)
    const progress: unknown[] = []
    const listening = await bus.subscribe('scan.progress.1', (data) =>
      progress.push(decodeJson(portScanProgressV1, data)),
    )
    const reply = decodeJson(
      portScanReplyV1,
      await bus.request(
        toolboxSubject('any', 'ports'),
        encodeJson({
          v: 1,
          host: '127.0.0.1',
          ports: [port, 1, 2, 3],
          concurrency: 2,
          timeoutMs: 500,
          progressSubject: 'scan.progress.1',
        }),
        { timeoutMs: 5000 },
      ),
    )
    await closeServer(open)
    expect(reply).toMatchObject({ address: '127.0.0.1', scanned: 4, open: [{ port }] })
    // Progress events are plain emits: the in-process bus delivers them on the next turn of the loop.
    await waitFor('the last progress event', () =>
      progress.some((event) => (event as { scanned: number }).scanned === 4) ? true : undefined,
    )
    await listening.stop()
    expect(progress.at(-1)).toMatchObject({ scanned: 4, total: 4 })
    expect(progress.flatMap((event) => (event as { open: number[] }).open)).toEqual([port])
  })

  it('stops a port scan as soon as its cancel subject is called', async () => {
    const progress: Array<{ scanned: number }> = []
    const listening = await bus.subscribe('scan.progress.2', (data) =>
      progress.push(decodeJson(portScanProgressV1, data)),
    )
    const scan = bus.request(
      toolboxSubject('any', 'ports'),
      encodeJson({
        v: 1,
        host: '127.0.0.1',
        ports: { from: 1, to: 20_000 },
        concurrency: 1,
        timeoutMs: 500,
        progressSubject: 'scan.progress.2',
        cancelSubject: 'scan.cancel.2',
      }),
      { timeoutMs: 60_000 },
    )
    await waitFor('the first progress event', () => (progress.length > 0 ? true : undefined))
    await bus.emit('scan.cancel.2', encodeJson({ v: 1 }))
    await expect(scan).rejects.toThrow(/cancelled after \d+ of 20000 ports/)
    await listening.stop()
  })

  it('looks up DNS records with TTLs through the toolbox', async () => {
    const fixture: DnsFixture = await startDnsFixture({
      'api.test': [
        { type: 'A', name: 'api.test', ttl: 120, data: '192.0.2.7' },
        { type: 'TXT', name: 'api.test', ttl: 60, data: 'hello' },
        { type: 'MX', name: 'api.test', ttl: 300, data: { preference: 10, exchange: 'mx.api.test' } },
      ],
    })
    try {
      const reply = decodeJson(
        dnsLookupReplyV1,
        await bus.request(
          toolboxSubject('fra', 'dns'),
          encodeJson({ v: 1, hostname: 'api.test', type: 'ANY', server: fixture.server }),
          { timeoutMs: 8000 },
        ),
      )
      expect(reply.records).toEqual([
        { type: 'A', value: '192.0.2.7', ttl: 120 },
        { type: 'MX', value: '10 mx.api.test', ttl: 300 },
        { type: 'TXT', value: 'hello', ttl: 60 },
      ])
      expect(reply.errors).toEqual({})
    } finally {
      await fixture.close()
    }
  })

  it('geolocates an IP address from the offline databases', async () => {
    const reply = decodeJson(
      geoLookupReplyV1,
      await bus.request(toolboxSubject('any', 'geo'), encodeJson({ v: 1, target: '8.8.8.8' }), { timeoutMs: 10_000 }),
    )
    expect(reply).toMatchObject({ ip: '8.8.8.8', countryCode: 'US', asn: 15169, organization: 'Google LLC' })
  })

  it('publishes heartbeats and serves /healthz and /metrics', async () => {
    const beats: unknown[] = []
    const listening = await bus.subscribe(probeHeartbeatSubject('fra'), (data) =>
      beats.push(decodeJson(probeHeartbeatV1, data)),
    )
    await waitFor('a heartbeat', () => beats[0], 3000)
    await listening.stop()
    expect(beats[0]).toMatchObject({ v: 1, location: 'fra', version: '0.1.0', outboxDepth: 0, monitors: 0 })

    const health = await fetch(`${probe.opsUrl}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({
      status: 'ok',
      location: 'fra',
      checks: { bus: 'up', outbox: 'ok' },
    })
    const metrics = await (await fetch(`${probe.opsUrl}/metrics`)).text()
    expect(metrics).toContain('guard_probe_outbox_entries{location="fra"} 0')
    expect(metrics).toContain('guard_probe_schedule_lag_seconds_bucket')
  })

  it('drains the check in flight on shutdown and publishes its result', async () => {
    const kv = await bus.kv(MONITORS_BUCKET)
    const monitor = httpMonitor(`${base}/slow`)
    await kv.put(monitor.id, encodeMonitorConfig(monitor))
    const before = hits['/slow'] ?? 0
    await waitFor('the slow check to start', () => ((hits['/slow'] ?? 0) > before ? true : undefined), 7000)
    await probe.close()
    await waitFor('the drained result', () => resultsFor(monitor.id)[0], 2000)
    expect(resultsFor(monitor.id)[0]).toMatchObject({ status: 'up' })
  })
})

describe('probe health', () => {
  const state = {
    location: 'fra',
    closing: false,
    busConnected: true,
    monitors: 3,
    outboxDepth: 0,
    outboxBytes: 0,
    outboxMaxBytes: 1000,
  }

  it('is 200 degraded while NATS is away and the outbox has room, 503 once results are about to be dropped', () => {
    expect(probeHealth(state)).toMatchObject({ serving: true, body: { status: 'ok' } })
    const away = { ...state, busConnected: false, outboxDepth: 40, outboxBytes: 400 }
    expect(probeHealth(away)).toMatchObject({
      serving: true,
      body: { status: 'degraded', checks: { bus: 'down', outbox: 'ok' } },
    })
    expect(probeHealth({ ...away, outboxBytes: 950 })).toMatchObject({
      serving: false,
      body: { status: 'unavailable', checks: { bus: 'down', outbox: 'nearly-full' } },
    })
  })

  it('is 503 while the probe shuts down', () => {
    expect(probeHealth({ ...state, closing: true })).toMatchObject({ serving: false, body: { status: 'unavailable' } })
  })
})
