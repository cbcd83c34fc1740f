import { gzipSync } from 'node:zlib'
import {
  DEFAULT_ORGANIZATION,
  type DeadLetter,
  type DeviceEvent,
  type DeviceHeartbeat,
  deadLetterSubject,
  decodeDeadLetter,
  decodeDeviceEvent,
  deviceHeartbeatMsgId,
  deviceHeartbeatSubject,
  encodeDeviceHeartbeat,
  type Stoppable,
} from '@guard/shared'
import { sampleHeartbeat } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { consumeDeviceHeartbeats, type HeartbeatIngestStats } from '../ingest/consume-device-heartbeats.ts'
import { detectOfflineDevices } from '../services/devices/detect-offline.ts'
import { publishDeviceEvents } from '../services/devices/outbox.ts'
import { selectRows } from '../services/results/query.ts'
import { collectorForTest, waitUntil } from '../test-support.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>

describe('devices and POST /agent', () => {
  let harness: Harness
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let consumer: Stoppable
  let subscription: Stoppable
  const stats: HeartbeatIngestStats = { stored: 0, duplicates: 0, deadLettered: 0, batches: 0 }
  const events: DeviceEvent[] = []
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    app.inject({ method, url, headers: headers(), ...(payload ? { payload } : {}) })
  const enrol = async (name: string, extra: Record<string, unknown> = {}) => {
    const response = await call('POST', '/api/devices', { name, ...extra })
    expect(response.statusCode).toBe(201)
    return response.json().data as { id: string; token: string; thresholds: Record<string, unknown> }
  }
  const beat = (token: string, body: unknown, extraHeaders: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/agent',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extraHeaders },
      payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    })
  const storedTimes = async (deviceId: string) =>
    (
      await selectRows<{ ms: number }>(
        harness.ctx.timeseries,
        `SELECT toUnixTimestamp64Milli(timestamp) AS ms FROM device_metrics FINAL
          WHERE device_id = {id:String} AND type = 'cpu' AND name = 'usage' ORDER BY timestamp`,
        { id: deviceId },
      )
    ).map((row) => Number(row.ms))

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_DEVICE_OFFLINE_MIN_SECONDS: '1', GUARD_AGENT_MAX_PER_MINUTE: '1000' })
    app = await buildCollectorApp(harness.ctx)
    consumer = await consumeDeviceHeartbeats(harness.ctx, stats)
    subscription = await harness.ctx.bus.subscribe('events.device.>', (data) => events.push(decodeDeviceEvent(data)))
  })
  afterAll(async () => {
    await subscription.stop()
    await consumer.stop()
    await app.close()
    await harness.close()
  })

  it('enrols a device, ingests a full heartbeat and serves it on every read route', async () => {
    const device = await enrol('web-1', { tags: ['prod'] })
    expect(device.token).toMatch(/^gdt_/)
    const timestamp = new Date(Date.now() - 5000).toISOString()
    const body = sampleHeartbeat(
      device.id,
      { cpu: 12 },
      {
        timestamp,
        system: {
          hostname: 'web-1.example',
          platform: 'linux',
          architecture: 'x64',
          cpu_model: 'Test CPU',
          cpu_cores: 4,
          total_memory: 17_179_869_184,
          total_disk: 107_374_182_400,
          agent_version: '0.1.0',
          uptime_seconds: 100,
        },
        processes: [
          { pid: 42, name: 'node', command: 'node x', cpu_percent: 3, memory_mb: 50, status: 'running', user: 'app' },
        ],
        applications: [{ name: 'nginx', version: '1.2', publisher: 'x', install_path: '', size: 10, is_running: true }],
        connections: [
          {
            local_address: '0.0.0.0',
            local_port: 22,
            remote_address: null,
            remote_port: null,
            protocol: 'tcp',
            status: 'LISTEN',
            process_name: 'sshd',
          },
        ],
        network: [{ interface: 'eth0', rx_bytes_per_second: 100, tx_bytes_per_second: 200 }],
      },
    )
    const response = await beat(device.token, body)
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toEqual({ received: true, timestamp, duplicate: false })
    await waitUntil(async () => (await storedTimes(device.id)).length === 1, 'the heartbeat in ClickHouse')

    const detail = (await call('GET', `/api/devices/${device.id}`)).json().data
    expect(detail).toMatchObject({
      name: 'web-1',
      hostname: 'web-1.example',
      platform: 'linux',
      cpu: 'Test CPU',
      cpuCores: 4,
      totalMemory: 17_179_869_184,
      isOnline: true,
      healthStatus: 'healthy',
      agentVersion: '0.1.0',
      tags: ['prod'],
    })
    const metrics = (await call('GET', `/api/devices/${device.id}/metrics?type=cpu`)).json().data
    expect(metrics).toContainEqual(
      expect.objectContaining({ type: 'cpu', name: 'usage', value: 12, unit: '%', timestamp }),
    )
    const network = (await call('GET', `/api/devices/${device.id}/metrics?type=network&range=1h`)).json().data
    expect(network.map((m: { name: string }) => m.name).sort()).toEqual(['rx', 'rx:eth0', 'tx', 'tx:eth0'])
    expect((await call('GET', `/api/devices/${device.id}/processes`)).json().data).toEqual([
      { pid: 42, name: 'node', command: 'node x', cpuPercent: 3, memoryMB: 50, status: 'running', user: 'app' },
    ])
    expect((await call('GET', `/api/devices/${device.id}/applications`)).json().data[0]).toMatchObject({
      name: 'nginx',
      isRunning: true,
    })
    expect((await call('GET', `/api/devices/${device.id}/network`)).json().data[0]).toMatchObject({
      localPort: 22,
      remoteAddress: null,
      processName: 'sshd',
    })
    const list = (await call('GET', '/api/devices')).json().data
    expect(list.find((d: { id: string }) => d.id === device.id)).toMatchObject({
      isOnline: true,
      hostname: 'web-1.example',
    })
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'device.online',
        data: expect.objectContaining({ deviceId: device.id, wasOffline: false }),
      }),
    )
  })

  it('stores a replayed heartbeat once, and a gzip body like a plain one', async () => {
    const device = await enrol('replay')
    const body = sampleHeartbeat(device.id, {}, { timestamp: new Date(Date.now() - 60_000).toISOString() })
    expect((await beat(device.token, body)).statusCode).toBe(200)
    const again = await beat(device.token, gzipSync(JSON.stringify(body)), { 'content-encoding': 'gzip' })
    expect(again.statusCode).toBe(200)
    expect(again.json().data.duplicate).toBe(true)
    await waitUntil(async () => (await storedTimes(device.id)).length === 1, 'one stored heartbeat')
    // A copy arriving after the bus' duplicate window is skipped by the consumer itself.
    await harness.ctx.bus.publish(
      'devices.heartbeat',
      new TextEncoder().encode(
        JSON.stringify({
          v: 1,
          deviceId: device.id,
          organizationId: DEFAULT_ORGANIZATION.id,
          timestamp: body.timestamp,
          receivedAt: new Date().toISOString(),
          heartbeat: body,
        }),
      ),
      { msgId: 'another-id' },
    )
    const duplicates = stats.duplicates
    await waitUntil(() => stats.duplicates > duplicates, 'the late copy skipped')
    expect(await storedTimes(device.id)).toHaveLength(1)
  })

  it("carries the device's per-minute X-RateLimit headers on every answer to a heartbeat, the 429 included", async () => {
    const limited = await buildCollectorApp({
      ...harness.ctx,
      env: { ...harness.ctx.env, GUARD_AGENT_MAX_PER_MINUTE: 2 },
    })
    try {
      const device = await enrol('limited')
      // Three heartbeats inside one minute: start away from its end, where the count starts over.
      const secondsLeft = 60 - ((Date.now() / 1000) % 60)
      if (secondsLeft < 5) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 100))
      const minuteEnd = Math.ceil(Date.now() / 60_000) * 60
      const answers = []
      for (let index = 0; index < 3; index += 1) {
        answers.push(
          await limited.inject({
            method: 'POST',
            url: '/agent',
            headers: { authorization: `Bearer ${device.token}`, 'content-type': 'application/json' },
            payload: JSON.stringify(
              sampleHeartbeat(device.id, {}, { timestamp: new Date(Date.now() - index * 1000).toISOString() }),
            ),
          }),
        )
      }
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 429])
      expect(answers.map((answer) => answer.headers['x-ratelimit-limit'])).toEqual(['2', '2', '2'])
      expect(answers.map((answer) => answer.headers['x-ratelimit-remaining'])).toEqual(['1', '0', '0'])
      for (const answer of answers) expect(answer.headers['x-ratelimit-reset']).toBe(String(minuteEnd))
      expect(Number(answers[2]!.headers['retry-after'])).toBeGreaterThan(0)
    } finally {
      await limited.close()
    }
  })

  it('answers 401 to a wrong token, 403 to another device id, and drops a regenerated token at once', async () => {
    const a = await enrol('a')
    const b = await enrol('b')
    expect((await beat('gdt_wrong', sampleHeartbeat(a.id))).statusCode).toBe(401)
    const missing = await app.inject({ method: 'POST', url: '/agent', payload: sampleHeartbeat(a.id) })
    expect(missing.statusCode).toBe(401)
    expect(missing.json()).toEqual({ error: 'UNAUTHORIZED', message: expect.any(String) })
    expect((await beat(a.token, sampleHeartbeat(b.id))).statusCode).toBe(403)
    expect((await beat(harness.apiKey, sampleHeartbeat(a.id))).statusCode).toBe(401)
    const regenerated = await call('POST', `/api/devices/${a.id}/regenerate-token`)
    expect(regenerated.statusCode).toBe(200)
    expect((await beat(a.token, sampleHeartbeat(a.id))).statusCode).toBe(401)
    expect((await beat(regenerated.json().data.token, sampleHeartbeat(a.id))).statusCode).toBe(200)
  })

  it('refuses malformed bodies, unknown encodings, corrupt gzip and gzip bombs with 4xx and stores nothing', async () => {
    const device = await enrol('bad-input')
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20))
    const cases: Array<[unknown, Record<string, string>, number]> = [
      ['{not json', {}, 400],
      [{ device_id: device.id }, {}, 400],
      [sampleHeartbeat(device.id, { cpu: 250 }), {}, 400],
      [{ ...sampleHeartbeat(device.id), timestamp: new Date(Date.now() + 3_600_000).toISOString() }, {}, 400],
      [Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' }, 400],
      [JSON.stringify(sampleHeartbeat(device.id)), { 'content-encoding': 'br' }, 415],
      [bomb, { 'content-encoding': 'gzip' }, 413],
      [JSON.stringify({ ...sampleHeartbeat(device.id), pad: 'x'.repeat(3 * 1024 * 1024) }), {}, 413],
    ]
    for (const [body, extra, status] of cases) {
      const response = await beat(device.token, body, extra)
      expect(response.statusCode, JSON.stringify(extra)).toBe(status)
      expect(response.json().message).toEqual(expect.any(String))
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await storedTimes(device.id)).toEqual([])
    expect((await call('GET', `/api/devices/${device.id}`)).json().data.lastSeen).toBeNull()
  })

  it('turns critical only once a level holds for holdSeconds, and healthy only once it holds below, one event each', async () => {
    const device = await enrol('hot', { thresholds: { cpu: { warning: 50, critical: 70, holdSeconds: 20 } } })
    expect(device.thresholds).toMatchObject({ cpu: { holdSeconds: 20 }, memory: { holdSeconds: 300 } })
    const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString()
    const health = async () => (await call('GET', `/api/devices/${device.id}`)).json().data.healthStatus
    const send = async (cpu: number, secondsAgo: number) => {
      const timestamp = at(secondsAgo)
      expect((await beat(device.token, sampleHeartbeat(device.id, { cpu }, { timestamp }))).statusCode).toBe(200)
      await waitUntil(async () => (await storedTimes(device.id)).includes(Date.parse(timestamp)), 'stored')
    }
    // A spike of 10 s, shorter than the hold: nothing.
    await send(95, 90)
    await send(96, 80)
    await send(10, 70)
    expect(await health()).toBe('healthy')
    await send(95, 60)
    await send(96, 50)
    expect(await health()).toBe('healthy')
    await send(97, 40)
    await waitUntil(async () => (await health()) === 'critical', 'critical once held for 20 s')
    await send(10, 30)
    await send(12, 20)
    expect(await health()).toBe('critical')
    await send(11, 10)
    await waitUntil(async () => (await health()) === 'healthy', 'healthy once held below for 20 s')
    await waitUntil(
      () => events.filter((e) => e.type === 'device.health' && e.data.deviceId === device.id).length === 2,
      'two health events',
    )
    const healthEvents = events.filter((e) => e.type === 'device.health' && e.data.deviceId === device.id)
    expect(healthEvents.map((e) => e.data)).toEqual([
      expect.objectContaining({
        previous: 'healthy',
        current: 'critical',
        reasons: [{ metric: 'cpu', value: 97, threshold: 70, level: 'critical' }],
      }),
      expect.objectContaining({ previous: 'critical', current: 'healthy', reasons: [] }),
    ])
  })

  it('takes a silent device offline once with one event, and back online on the next heartbeat', async () => {
    const device = await enrol('quiet')
    expect((await beat(device.token, sampleHeartbeat(device.id, {}, { interval_seconds: 1 }))).statusCode).toBe(200)
    await waitUntil(async () => (await call('GET', `/api/devices/${device.id}`)).json().data.isOnline, 'online')
    const later = new Date(Date.now() + 10_000)
    const [first, second] = await Promise.all([
      detectOfflineDevices(harness.ctx, later),
      detectOfflineDevices(harness.ctx, later),
    ])
    expect([...first, ...second].filter((e) => e.data.deviceId === device.id)).toHaveLength(1)
    await publishDeviceEvents(harness.ctx)
    await waitUntil(
      () => events.some((e) => e.type === 'device.offline' && e.data.deviceId === device.id),
      'offline event',
    )
    expect((await call('GET', `/api/devices/${device.id}`)).json().data.isOnline).toBe(false)
    expect((await call('GET', '/api/devices/stats')).json().data).toMatchObject({
      offline: expect.any(Number),
      activeIncidents: 0,
    })

    expect((await beat(device.token, sampleHeartbeat(device.id, {}, { interval_seconds: 1 }))).statusCode).toBe(200)
    await waitUntil(
      () => events.some((e) => e.type === 'device.online' && e.data.deviceId === device.id && e.data.wasOffline),
      'online again',
    )
    const mine = events.filter((e) => e.data.deviceId === device.id).map((e) => e.type)
    expect(mine).toEqual(['device.online', 'device.offline', 'device.online'])
  })

  it("updates and deletes a device; a deleted device's token stops working", async () => {
    const device = await enrol('temp')
    const updated = await call('PUT', `/api/devices/${device.id}`, {
      name: 'renamed',
      thresholds: { disk: { warning: 60, critical: 70 } },
    })
    expect(updated.json().data).toMatchObject({
      name: 'renamed',
      thresholds: { disk: { warning: 60, critical: 70, holdSeconds: 300 }, cpu: { warning: 80, critical: 90 } },
    })
    // A hold changes on its own, and a later change of the levels keeps it.
    await call('PUT', `/api/devices/${device.id}`, {
      thresholds: { cpu: { warning: 70, critical: 85, holdSeconds: 0 } },
    })
    const kept = await call('PUT', `/api/devices/${device.id}`, { thresholds: { cpu: { warning: 75, critical: 85 } } })
    expect(kept.json().data.thresholds.cpu).toEqual({ warning: 75, critical: 85, holdSeconds: 0 })
    expect(
      (
        await call('PUT', `/api/devices/${device.id}`, {
          thresholds: { cpu: { warning: 1, critical: 2, holdSeconds: -1 } },
        })
      ).statusCode,
    ).toBe(400)
    expect(
      (await call('PUT', `/api/devices/${device.id}`, { thresholds: { cpu: { warning: 95, critical: 90 } } }))
        .statusCode,
    ).toBe(400)
    expect((await call('DELETE', `/api/devices/${device.id}`)).statusCode).toBe(200)
    expect((await call('GET', `/api/devices/${device.id}`)).statusCode).toBe(404)
    expect((await beat(device.token, sampleHeartbeat(device.id))).statusCode).toBe(401)
  })

  it('dead-letters a heartbeat a store refuses and stores the others of its batch', async () => {
    const devices = [await enrol('batch-1'), await enrol('batch-2'), await enrol('batch-3')]
    const letters: DeadLetter[] = []
    const watching = await harness.ctx.bus.subscribe(deadLetterSubject('devices'), (data) =>
      letters.push(decodeDeadLetter(data)),
    )
    const timestamp = new Date(Date.now() - 1000).toISOString()
    for (const [index, device] of devices.entries()) {
      const heartbeat = sampleHeartbeat(device.id, { cpu: 5 }, { timestamp })
      // A NUL passes the contract (an agent from before this check) but no PostgreSQL text or JSON.
      if (index === 1) {
        heartbeat.system = {
          hostname: 'bad\u0000host',
          platform: 'linux',
          architecture: 'x64',
          cpu_model: 'Test CPU',
          cpu_cores: 4,
          total_memory: 1024,
          total_disk: 1024,
          agent_version: '0.1.0',
          uptime_seconds: 1,
        }
      }
      const message: DeviceHeartbeat = {
        v: 1,
        deviceId: device.id,
        organizationId: DEFAULT_ORGANIZATION.id,
        timestamp,
        receivedAt: timestamp,
        heartbeat,
      }
      await harness.ctx.bus.publish(deviceHeartbeatSubject, encodeDeviceHeartbeat(message), {
        msgId: deviceHeartbeatMsgId(device.id, timestamp),
      })
    }
    await waitUntil(() => letters.length === 1, 'the dead letter')
    await waitUntil(async () => (await storedTimes(devices[2]!.id)).length === 1, 'the heartbeat behind it stored')
    expect((await storedTimes(devices[0]!.id)).length).toBe(1)
    // Its metrics went into ClickHouse beside the refused state; a replay after a fix stores them once.
    expect((await storedTimes(devices[1]!.id)).length).toBeLessThanOrEqual(1)
    expect(letters[0]).toMatchObject({ source: 'devices', reason: 'data', organizationId: DEFAULT_ORGANIZATION.id })
    await watching.stop()
  })
})
