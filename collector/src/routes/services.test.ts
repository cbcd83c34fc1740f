import {
  type CheckResult,
  DEFAULT_ORGANIZATION,
  decodeCheckResult,
  decodeJson,
  decodeMonitorConfig,
  encodeJson,
  manualCheckRequestV1,
  manualCheckSubject,
  PROBE_QUEUE,
} from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { storeResults } from '../services/results/store.ts'
import { collectorForTest } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>

describe('services API', () => {
  let harness: Harness
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    app.inject({ method, url, headers: headers(), ...(payload ? { payload } : {}) })

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('creates a tcp service, schedules it as a tcp monitor and shows it with its state', async () => {
    const created = await call('POST', '/api/services', {
      name: 'Postgres',
      protocol: 'tcp',
      protocolConfig: { host: 'db.example.org', port: 5432 },
      checkInterval: 30,
    })
    expect(created.statusCode).toBe(201)
    const service = created.json().data
    expect(service).toEqual({
      id: expect.any(String),
      name: 'Postgres',
      protocol: 'tcp',
      status: 'unknown',
      lastCheck: null,
      checkInterval: 30,
      timeout: 29,
      enabled: true,
      consecutiveFailures: 0,
      protocolConfig: { host: 'db.example.org', port: 5432 },
      tags: [],
      groupId: null,
      createdAt: expect.any(String),
    })
    const schedule = decodeMonitorConfig((await harness.ctx.monitors.get(service.id))!.value!)
    expect(schedule.target).toEqual({ kind: 'tcp', host: 'db.example.org', port: 5432 })

    const results = [
      resultFor(service.id, DEFAULT_ORGANIZATION.id, 'fra', 120, 'down', 5, { kind: 'tcp', error: 'ECONNREFUSED' }),
      resultFor(service.id, DEFAULT_ORGANIZATION.id, 'fra', 60, 'down', 5, { kind: 'tcp', error: 'ECONNREFUSED' }),
    ]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    const detail = (await call('GET', `/api/services/${service.id}`)).json().data
    expect(detail).toMatchObject({ status: 'down', consecutiveFailures: 2, lastCheck: results[1]!.startedAt })
    const list = (await call('GET', '/api/services')).json().data as Array<{ id: string }>
    expect(list.map((item) => item.id)).toContain(service.id)

    const history = (await call('GET', `/api/services/${service.id}/history?limit=1`)).json().data
    expect(history).toEqual([
      {
        id: results[1]!.id,
        serviceId: service.id,
        status: 'down',
        responseTime: 5,
        timestamp: results[1]!.startedAt,
        message: 'ECONNREFUSED',
        location: 'fra',
      },
    ])
  })

  it("gives an HTTP service's history the timing phases of each check", async () => {
    const created = await call('POST', '/api/services', {
      name: 'Health endpoint',
      protocol: 'https',
      protocolConfig: { host: 'example.org', path: '/health' },
    })
    expect(created.statusCode).toBe(201)
    const { id } = created.json().data
    const phases = { dnsMs: 3, connectMs: 10, tlsMs: 25, firstByteMs: 40, transferMs: 2 }
    const result = resultFor(id, DEFAULT_ORGANIZATION.id, 'iad', 30, 'up', 80, { phases })
    await storeResults(harness.ctx.timeseries, [result])
    const history = (await call('GET', `/api/services/${id}/history`)).json().data
    expect(history).toEqual([expect.objectContaining({ id: result.id, location: 'iad', phases })])
  })

  it('maps each protocol onto the probe target and refuses a tcp service without a port', async () => {
    const cases: Array<[string, Record<string, unknown>, unknown]> = [
      [
        'https',
        { host: 'example.org', port: 8443, path: '/health' },
        { kind: 'http', url: 'https://example.org:8443/health' },
      ],
      ['dns', { host: 'example.org' }, { kind: 'dns', hostname: 'example.org', recordType: 'A' }],
      ['tls', { host: 'example.org' }, { kind: 'tls', host: 'example.org' }],
      ['icmp', { host: '192.0.2.1' }, { kind: 'icmp', host: '192.0.2.1' }],
    ]
    for (const [protocol, protocolConfig, target] of cases) {
      const response = await call('POST', '/api/services', { name: protocol, protocol, protocolConfig })
      expect(response.statusCode, protocol).toBe(201)
      const schedule = decodeMonitorConfig((await harness.ctx.monitors.get(response.json().data.id))!.value!)
      expect(schedule.target).toMatchObject(target as object)
    }
    const missingPort = await call('POST', '/api/services', {
      name: 'x',
      protocol: 'tcp',
      protocolConfig: { host: 'example.org' },
    })
    expect(missingPort.statusCode).toBe(400)
    expect(missingPort.json().message).toMatch(/protocolConfig\.port/)
  })

  it('updates and deletes a service, following with its schedule', async () => {
    const { id } = (
      await call('POST', '/api/services', { name: 'Web', protocol: 'http', protocolConfig: { host: 'example.org' } })
    ).json().data
    const updated = await call('PUT', `/api/services/${id}`, { name: 'Web 2', enabled: false })
    expect(updated.json().data).toMatchObject({ name: 'Web 2', enabled: false })
    expect(decodeMonitorConfig((await harness.ctx.monitors.get(id))!.value!).enabled).toBe(false)
    expect((await call('DELETE', `/api/services/${id}`)).json()).toEqual({ success: true, data: { id, deleted: true } })
    expect(await harness.ctx.monitors.get(id)).toBeNull()
    expect((await call('GET', `/api/services/${id}`)).statusCode).toBe(404)
  })

  it('runs a manual check on a probe over request/reply and returns its result, recording it when asked', async () => {
    const { id } = (
      await call('POST', '/api/services', {
        name: 'Check me',
        protocol: 'tcp',
        protocolConfig: { host: 'example.org', port: 443 },
      })
    ).json().data
    expect((await call('POST', `/api/services/${id}/check`)).statusCode).toBe(503)

    const seen: string[] = []
    const probe = await harness.ctx.bus.respond(manualCheckSubject('any'), PROBE_QUEUE, async (data) => {
      const { monitor } = decodeJson(manualCheckRequestV1, data)
      seen.push(monitor.id)
      return encodeJson({
        v: 1,
        result: resultFor(monitor.id, monitor.organizationId, 'fra', 0, 'up', 12.5, { kind: 'tcp' }),
      })
    })
    try {
      const response = await call('POST', `/api/services/${id}/check`)
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({
        success: true,
        data: { status: 'up', responseTime: 12.5, message: 'up (200)' },
      })
      expect(seen).toEqual([id])

      const recorded: CheckResult[] = []
      const consumer = await harness.ctx.bus.consume(
        {
          stream: 'RESULTS',
          durable: 'check-now-test',
          filterSubject: 'results.>',
          maxBatch: 10,
          maxWaitMs: 10,
          ackWaitMs: 5000,
        },
        async (batch) => {
          for (const message of batch) {
            recorded.push(decodeCheckResult(message.data))
            await message.ack()
          }
        },
      )
      try {
        expect((await call('POST', `/api/services/${id}/check?store=true`)).statusCode).toBe(200)
        await expect.poll(() => recorded.map((result) => result.monitorId)).toEqual([id])
      } finally {
        await consumer.stop()
      }
    } finally {
      await probe.stop()
    }
  })
})
