import type { Stoppable } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runMonitorCommand } from '../bin/commands/monitor.ts'
import { buildCollectorApp } from '../collector/src/app.ts'
import { consumeHeartbeats } from '../collector/src/ingest/consume-heartbeats.ts'
import { consumeResults } from '../collector/src/ingest/consume-results.ts'
import { createIngestMetrics } from '../collector/src/ingest/metrics.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { type RunningProbe, startProbe } from '../probe/src/server.ts'
import { testProbeEnv } from '../probe/src/testing/probe-env.ts'
import { startUdpServer, type UdpFixture } from '../probe/src/testing/udp-server.ts'

/**
 * A registry protocol (UDP) through the whole path: created with the services API, scheduled, run
 * by a real probe against a real UDP server, its result ingested and shown; and run once through
 * POST /api/monitors/test and the CLI.
 */
describe('a check protocol of the registry end to end', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let udp: UdpFixture
  let probe: RunningProbe
  const consumers: Stoppable[] = []
  const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${harness.apiKey}` }, ...(payload ? { payload } : {}) })
  const udpService = (replyContains: string) => ({
    name: 'echo',
    protocol: 'udp',
    protocolConfig: { host: '127.0.0.1', port: udp.port, payload: 'ping', replyContains },
    checkInterval: 5,
    timeout: 2,
    locations: ['fra'],
  })

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_LOCATIONS: 'fra', GUARD_MANUAL_CHECK_TIMEOUT_SECONDS: '3' })
    app = await buildCollectorApp(harness.ctx)
    const ingest = await consumeResults(harness.ctx, { stored: 0, deadLettered: 0, batches: 0 }, createIngestMetrics())
    consumers.push({ stop: () => ingest.stop() }, await consumeHeartbeats(harness.ctx))
    udp = await startUdpServer((datagram) => `PONG ${datagram}`)
    const env = await testProbeEnv({ GUARD_PROBE_LOCATION: 'fra', GUARD_PROBE_HEARTBEAT_SECONDS: '1' })
    probe = await startProbe({ env, log: harness.ctx.log, bus: harness.ctx.bus })
  }, 60_000)

  afterAll(async () => {
    await probe?.close()
    await Promise.all(consumers.map((consumer) => consumer.stop()))
    await app?.close()
    await udp?.close()
    await harness?.close()
  })

  it('checks a UDP service created through the API on a real probe and stores its result', async () => {
    const created = await call('POST', '/api/services', udpService('PONG ping'))
    expect(created.statusCode, created.body).toBe(201)
    const { id } = created.json().data
    await expect
      .poll(async () => (await call('GET', `/api/services/${id}/history?limit=1`)).json().data[0], {
        timeout: 20_000,
        interval: 250,
      })
      .toMatchObject({ status: 'up', location: 'fra', phases: { firstByteMs: expect.any(Number) } })
    expect(udp.received.map(String)).toContain('ping')
  }, 30_000)

  it('runs a UDP check once through POST /api/monitors/test and the CLI, storing nothing', async () => {
    await expect
      .poll(async () => (await call('GET', '/api/locations')).json().data.map((l: { code: string }) => l.code), {
        timeout: 10_000,
      })
      .toContain('fra')
    const up = await call('POST', '/api/monitors/test', { location: 'fra', service: udpService('PONG') })
    expect(up.statusCode, up.body).toBe(200)
    expect(up.json().data).toMatchObject({ kind: 'udp', status: 'up', location: 'fra' })
    const mismatch = await call('POST', '/api/monitors/test', { location: 'fra', service: udpService('READY') })
    expect(mismatch.json().data).toMatchObject({ kind: 'udp', status: 'down', errorKind: 'reply_mismatch' })

    const listening = await buildCollectorApp(harness.ctx)
    try {
      await listening.listen({ host: '127.0.0.1', port: 0 })
      const { port } = listening.server.address() as { port: number }
      const printed: string[] = []
      const exit = await runMonitorCommand(
        ['test', '--location', 'fra', '--service', JSON.stringify(udpService('PONG'))],
        { GUARD_COLLECTOR_URL: `http://127.0.0.1:${port}`, GUARD_API_KEY: harness.apiKey },
        (text) => printed.push(text),
      )
      expect(exit).toBe(0)
      expect(JSON.parse(printed[0]!)).toMatchObject({ kind: 'udp', status: 'up' })
    } finally {
      await listening.close()
    }
  }, 30_000)
})
