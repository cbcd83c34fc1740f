import { DEFAULT_ORGANIZATION, decodeMonitorConfig } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { createApiKey } from '../services/api-keys/create.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { storeResults } from '../services/results/store.ts'
import { collectorForTest, refreshSummariesOf } from '../test-support.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>

describe('domains API', () => {
  let harness: Harness
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const auth = () => ({ authorization: `Bearer ${harness.apiKey}` })

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  const create = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/domains', headers: auth(), payload })

  it('answers 401 with exactly the spec body when the key is missing or wrong', async () => {
    for (const headers of [{}, { authorization: 'Bearer guard_not-a-real-key' }, { authorization: 'Basic abc' }]) {
      const response = await app.inject({ method: 'GET', url: '/api/domains', headers })
      expect(response.statusCode).toBe(401)
      expect(response.json()).toEqual({ error: 'UNAUTHORIZED', message: expect.any(String) })
    }
  })

  it('answers health without authentication', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      status: 'ok',
      timestamp: expect.any(String),
      checks: { bus: 'up', relational: 'up', timeseries: 'up' },
    })
  })

  it('stores a new domain and publishes its schedule to the monitors bucket', async () => {
    const response = await create({ url: 'https://example.org/health', name: 'Example', checkInterval: 30 })
    expect(response.statusCode).toBe(201)
    const { data } = response.json()
    expect(data).toEqual({
      id: expect.any(String),
      url: 'https://example.org/health',
      name: 'Example',
      checkInterval: 30,
      enabled: true,
      createdAt: expect.any(String),
    })
    const entry = await harness.ctx.monitors.get(data.id)
    const schedule = decodeMonitorConfig(entry!.value!)
    expect(schedule).toMatchObject({ id: data.id, intervalSeconds: 30, timeoutSeconds: 29, enabled: true })
  })

  it.each([
    ['a URL that is not http(s)', { url: 'ftp://example.org' }, /url/],
    ['a timeout not below the interval', { url: 'https://example.org', checkInterval: 10, timeout: 10 }, /timeout/],
    ['an interval below 5 seconds', { url: 'https://example.org', checkInterval: 1 }, /checkInterval/],
    ['an unknown field', { url: 'https://example.org', colour: 'red' }, /colour|unrecognized/i],
  ])('refuses %s with a 400 that names the field', async (_name, payload, field) => {
    const response = await create(payload)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ success: false, error: 'VALIDATION_ERROR' })
    expect(response.json().message).toMatch(field)
  })

  it('refuses a body that is not JSON with a 400 and keeps stored domains', async () => {
    const before = (await app.inject({ method: 'GET', url: '/api/domains', headers: auth() })).json().pagination.total
    const response = await app.inject({
      method: 'POST',
      url: '/api/domains',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: '{"url": ',
    })
    expect(response.statusCode).toBe(400)
    const after = (await app.inject({ method: 'GET', url: '/api/domains', headers: auth() })).json().pagination.total
    expect(after).toBe(before)
  })

  it('serves history newest first and locations keyed by location code', async () => {
    const { data } = (await create({ url: 'https://example.net', checkInterval: 60 })).json()
    const base = Date.now() - 60_000
    const result = (location: string, offset: number, status: 'up' | 'down') => ({
      v: 1 as const,
      id: `${location}-${offset}`,
      monitorId: data.id,
      organizationId: DEFAULT_ORGANIZATION.id,
      location,
      kind: 'http' as const,
      status,
      startedAt: new Date(base + offset * 1000).toISOString(),
      responseTimeMs: 100 + offset,
      statusCode: status === 'up' ? 200 : 503,
    })
    const results = [result('fra', 1, 'up'), result('iad', 2, 'up'), result('fra', 3, 'down'), result('iad', 4, 'down')]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    await refreshSummariesOf(harness.ctx, results)

    const history = (
      await app.inject({ method: 'GET', url: `/api/domains/${data.id}/monitoring/history`, headers: auth() })
    ).json()
    expect(history.data.map((entry: { id: string }) => entry.id)).toEqual(['iad-4', 'fra-3', 'iad-2', 'fra-1'])
    expect(history.data[0]).toEqual({
      id: 'iad-4',
      domainId: data.id,
      status: 'down',
      responseTime: 104,
      statusCode: 503,
      timestamp: new Date(base + 4000).toISOString(),
      location: 'iad',
    })

    const locations = (
      await app.inject({ method: 'GET', url: `/api/domains/${data.id}/monitoring/locations?limit=1`, headers: auth() })
    ).json()
    expect(locations.data).toEqual({
      fra: [{ timestamp: new Date(base + 3000).toISOString(), status: 'down', responseTime: 103 }],
      iad: [{ timestamp: new Date(base + 4000).toISOString(), status: 'down', responseTime: 104 }],
    })

    const detail = (await app.inject({ method: 'GET', url: `/api/domains/${data.id}`, headers: auth() })).json()
    // One failure per location is below the default threshold of two consecutive failures.
    expect(detail.data).toMatchObject({
      status: 'up',
      uptimePercentage: 50,
      lastCheck: new Date(base + 4000).toISOString(),
    })

    const up = (await app.inject({ method: 'GET', url: '/api/domains?status=up', headers: auth() })).json()
    expect(up.data.map((domain: { id: string }) => domain.id)).toEqual([data.id])
  })

  it('draws the latency of a 90-day range from the hourly rollup, beyond the raw results kept', async () => {
    const { data } = (await create({ url: 'https://long.example', checkInterval: 60 })).json()
    const day = 86_400_000
    const result = (id: string, location: string, ageMs: number, responseTimeMs: number, status: 'up' | 'down') => ({
      v: 1 as const,
      id,
      monitorId: data.id,
      organizationId: DEFAULT_ORGANIZATION.id,
      location,
      kind: 'http' as const,
      status,
      startedAt: new Date(Date.now() - ageMs).toISOString(),
      responseTimeMs,
      statusCode: status === 'up' ? 200 : 503,
    })
    await storeResults(harness.ctx.timeseries, [
      result('old', 'fra', 60 * day, 300, 'up'),
      result('recent-1', 'fra', 60_000, 100, 'up'),
      result('recent-2', 'fra', 60_000, 200, 'down'),
      result('recent-3', 'iad', 120_000, 50, 'up'),
    ])
    const latency = async (range: string) => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/domains/${data.id}/monitoring/latency?range=${range}`,
        headers: auth(),
      })
      expect(response.statusCode).toBe(200)
      return response.json().data
    }
    const quarter = await latency('90d')
    expect(quarter.step).toBe(86_400)
    expect(quarter.locations.fra.map((bucket: { checks: number }) => bucket.checks)).toEqual([1, 2])
    expect(quarter.locations.fra[1]).toMatchObject({ checks: 2, failures: 1, responseTime: 150, maxResponseTime: 200 })
    expect(quarter.locations.iad).toEqual([expect.objectContaining({ checks: 1, responseTime: 50 })])

    const month = await latency('30d')
    expect(month.locations.fra.map((bucket: { checks: number }) => bucket.checks)).toEqual([2])
    const hour = await latency('1h')
    expect(hour.step).toBe(60)
    expect(Object.keys(hour.locations).sort()).toEqual(['fra', 'iad'])

    const refused = await app.inject({
      method: 'GET',
      url: `/api/domains/${data.id}/monitoring/latency?range=1y`,
      headers: auth(),
    })
    expect(refused.statusCode).toBe(400)
  })

  it("never shows one organization's domain to another", async () => {
    const { data } = (await create({ url: 'https://private.example', checkInterval: 60 })).json()
    const other = await createApiKey(harness.ctx.sql, {
      organizationId: 'other-org',
      name: 'other',
      permissions: ['*:*'],
    })
    const headers = { authorization: `Bearer ${other.key}` }
    for (const url of [
      `/api/domains/${data.id}`,
      `/api/domains/${data.id}/monitoring/history`,
      `/api/domains/${data.id}/monitoring/locations`,
      `/api/domains/${data.id}/monitoring/latency?range=90d`,
    ]) {
      const response = await app.inject({ method: 'GET', url, headers })
      expect(response.statusCode).toBe(404)
    }
    const list = (await app.inject({ method: 'GET', url: '/api/domains', headers })).json()
    expect(list.data).toEqual([])
  })
})
