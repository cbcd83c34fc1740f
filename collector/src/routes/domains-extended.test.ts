import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { storeResults } from '../services/results/store.ts'
import { collectorForTest, eventsSettled, refreshSummariesOf, startReactionsForTest } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>
const ORG = DEFAULT_ORGANIZATION.id

describe('domains API: stats, shapes, updates and page fetches', () => {
  let harness: Harness
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let fixture: Server
  let fixtureUrl: string
  let reactions: Awaited<ReturnType<typeof startReactionsForTest>>
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })
  const get = (url: string) => app.inject({ method: 'GET', url, headers: headers() })
  const create = async (payload: Record<string, unknown>) =>
    (await app.inject({ method: 'POST', url: '/api/domains', headers: headers(), payload })).json().data as {
      id: string
    }

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_ALLOW_PRIVATE_TARGETS: '1' })
    app = await buildCollectorApp(harness.ctx)
    reactions = await startReactionsForTest(harness.ctx)
    fixture = createServer((request, response) => {
      if (request.url === '/moved') {
        response.writeHead(302, { location: '/' }).end()
        return
      }
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end(
        '<html><head><title> Fixture &amp; Co </title><link rel="shortcut icon" href="/static/icon.png"></head></html>',
      )
    })
    await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve))
    fixtureUrl = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await app.close()
    await reactions.stop()
    await harness.close()
    fixture.close()
  })

  it('reports every counter, percentile and downtime figure for short and long periods', async () => {
    const { id } = await create({ url: 'https://stats.example', checkInterval: 60 })
    const times = [100, 120, 140, 160, 180, 200, 220, 240]
    const results = [
      ...times.map((ms, index) => resultFor(id, ORG, 'fra', 1800 - index * 60, 'up', ms)),
      resultFor(id, ORG, 'fra', 1200, 'down', 1000),
      resultFor(id, ORG, 'fra', 1140, 'down', 1000),
      resultFor(id, ORG, 'fra', 600, 'up', 150),
    ]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    // A redelivery of the whole batch must change no figure, rollups included.
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    await refreshSummariesOf(harness.ctx, results)
    await eventsSettled(harness.ctx)

    for (const period of ['1h', '24h', '7d', '30d', '90d']) {
      const response = await get(`/api/domains/${id}/stats?period=${period}`)
      expect(response.statusCode).toBe(200)
      const stats = response.json().data
      expect(stats).toMatchObject({
        domain_id: id,
        period,
        total_checks: 11,
        successful_checks: 9,
        failed_checks: 2,
        uptime_percentage: 81.82,
        min_response_time_ms: 100,
        max_response_time_ms: 1000,
        incidents_count: 1,
        total_downtime_seconds: 540,
        longest_incident_seconds: 540,
      })
      expect(stats.average_response_time_ms).toBeCloseTo((times.reduce((a, b) => a + b, 0) + 2000 + 150) / 11, 1)
      expect(stats.p95_response_time_ms).toBeGreaterThan(240)
    }
    expect((await get(`/api/domains/${id}/stats`)).json().data.period).toBe('30d')
    expect((await get(`/api/domains/${id}/stats?period=2y`)).statusCode).toBe(400)

    const summary = (await get(`/api/domains/${id}/summary`)).json().data
    expect(summary).toEqual({
      domain: { id, name: 'stats.example', url: 'https://stats.example' },
      stats: {
        uptime24h: 81.82,
        uptime7d: 81.82,
        uptime30d: 81.82,
        avgResponseTime: expect.any(Number),
        totalChecks: 11,
        failedChecks: 2,
      },
      certificate: null,
    })
  })

  it('shows no uptime or response time, in the API and its OpenAPI document, before the first check', async () => {
    const { id } = await create({ url: 'https://never-checked.example' })
    const listed = (await get('/api/domains?search=never-checked')).json().data[0]
    const detail = (await get(`/api/domains/${id}`)).json().data
    for (const view of [listed, detail]) {
      expect(view).toMatchObject({ status: 'unknown', uptimePercentage: null, responseTime: null })
    }
    expect((await get(`/api/domains/${id}/stats?period=24h`)).json().data).toMatchObject({
      total_checks: 0,
      uptime_percentage: null,
      average_response_time_ms: null,
      p95_response_time_ms: null,
    })
    expect((await get(`/api/domains/${id}/summary`)).json().data.stats).toMatchObject({
      uptime24h: null,
      avgResponseTime: null,
    })
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    const serialized = JSON.stringify(document.paths['/api/domains/{id}'].get.responses['200'])
    expect(serialized).toMatch(/"uptimePercentage":\{[^}]*"null"/)
  })

  it('answers 7d, 30d and 90d stats from the rollups, not from raw results', async () => {
    const { id } = await create({ url: 'https://rollups.example' })
    const results = [resultFor(id, ORG, 'fra', 600, 'up', 10), resultFor(id, ORG, 'fra', 540, 'up', 30)]
    await storeResults(harness.ctx.timeseries, results)
    await refreshSummariesOf(harness.ctx, results)
    // With the raw rows gone, only a read of the rollups can still count them.
    await harness.ctx.timeseries.client.command({
      query: 'ALTER TABLE check_results DELETE WHERE monitor_id = {id:String}',
      query_params: { id },
      clickhouse_settings: { mutations_sync: '1' },
    })
    expect((await get(`/api/domains/${id}/stats?period=24h`)).json().data.total_checks).toBe(0)
    for (const period of ['7d', '30d', '90d']) {
      expect((await get(`/api/domains/${id}/stats?period=${period}`)).json().data).toMatchObject({
        total_checks: 2,
        average_response_time_ms: 20,
      })
    }
  })

  it('serves organization stats and the all-domain response-time trend', async () => {
    const { id } = await create({ url: 'https://trend.example', name: 'Trend' })
    const results = [resultFor(id, ORG, 'iad', 300, 'up', 50), resultFor(id, ORG, 'iad', 240, 'up', 70)]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    await refreshSummariesOf(harness.ctx, results)

    const stats = (await get('/api/domains/stats')).json().data
    expect(stats.total).toBe(stats.up + stats.down + stats.unknown)
    expect(stats.up).toBeGreaterThanOrEqual(2)
    expect(stats.avgUptime).toBeGreaterThan(0)

    const trend = (await get('/api/domains/response-times?range=1h')).json().data as Array<{
      domainId: string
      avgResponseTime: number
      minResponseTime: number
      maxResponseTime: number
      dataPoints: Array<{ timestamp: string; responseTime: number }>
    }>
    const entry = trend.find((item) => item.domainId === id)
    expect(entry).toMatchObject({ domainName: 'Trend', avgResponseTime: 60, minResponseTime: 50, maxResponseTime: 70 })
    expect(entry?.dataPoints.length).toBe(2)
    expect((await get('/api/domains/response-times?range=1y')).statusCode).toBe(400)
  })

  it('answers the alternative list shape when the request carries offset', async () => {
    const disabled = await create({ url: 'https://disabled.example' })
    await app.inject({
      method: 'PUT',
      url: `/api/domains/${disabled.id}`,
      headers: headers(),
      payload: { enabled: false },
    })
    const all = (await get('/api/domains?offset=0&limit=200')).json()
    expect(all.success).toBeUndefined()
    expect(all.pagination).toEqual({ total: all.data.length, limit: 200, offset: 0, has_more: false })
    expect(all.data[0]).toEqual({
      id: disabled.id,
      url: 'https://disabled.example',
      name: 'disabled.example',
      status: 'inactive',
      check_interval: 60,
      last_check: null,
      uptime_percentage: null,
      response_time_ms: null,
      ssl_expires_at: null,
      tags: [],
      group_id: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    })
    const active = (await get('/api/domains?offset=0&status=active')).json().data as Array<{ status: string }>
    expect(active.length).toBeGreaterThan(0)
    expect(active.every((item) => item.status === 'active')).toBe(true)
    const page = (await get('/api/domains?offset=1&limit=1')).json()
    expect(page.pagination).toMatchObject({ offset: 1, limit: 1, has_more: true })
    for (const bad of ['offset=-1', 'offset=0&limit=201', 'offset=0&limit=0', 'status=active', 'offset=0&status=up']) {
      const response = await get(`/api/domains?${bad}`)
      expect(response.statusCode, bad).toBe(400)
    }
  })

  it('searches names and URLs for the literal text, wildcards included', async () => {
    const { id } = await create({ url: 'https://percent.example', name: '100% uptime' })
    const found = (await get('/api/domains?search=%25')).json()
    expect(found.data.map((item: { id: string }) => item.id)).toEqual([id])
    expect(found.pagination).toMatchObject({ total: 1, page: 1 })
    expect((await get('/api/domains?search=PERCENT.EX')).json().data[0].id).toBe(id)
  })

  it('updates a domain and republishes its schedule; deleting removes the schedule', async () => {
    const { id } = await create({ url: 'https://update.example', checkInterval: 60 })
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/domains/${id}`,
      headers: headers(),
      payload: { name: 'Renamed', checkInterval: 10, enabled: false },
    })
    expect(updated.statusCode).toBe(200)
    expect(updated.json().data).toMatchObject({ name: 'Renamed', checkInterval: 10, enabled: false })
    const schedule = JSON.parse(new TextDecoder().decode((await harness.ctx.monitors.get(id))!.value!))
    expect(schedule).toMatchObject({ intervalSeconds: 10, timeoutSeconds: 9, enabled: false })

    const removed = await app.inject({ method: 'DELETE', url: `/api/domains/${id}`, headers: headers() })
    expect(removed.json()).toEqual({ success: true, data: { id, deleted: true } })
    expect(await harness.ctx.monitors.get(id)).toBeNull()
    expect((await get(`/api/domains/${id}`)).statusCode).toBe(404)
  })

  it('applies the per-domain failure threshold and quorum to the domain status', async () => {
    const strict = await create({ url: 'https://strict.example', failureThreshold: 1, quorumPercent: 100 })
    const failing = [resultFor(strict.id, ORG, 'fra', 120, 'down', 10), resultFor(strict.id, ORG, 'iad', 119, 'up', 10)]
    await applyResultsToState(harness.ctx.sql, failing)
    // One failing location of two is below a 100 % quorum.
    expect((await get(`/api/domains/${strict.id}`)).json().data.status).toBe('up')
    await app.inject({
      method: 'PUT',
      url: `/api/domains/${strict.id}`,
      headers: headers(),
      payload: { quorumPercent: 50 },
    })
    await applyResultsToState(harness.ctx.sql, [resultFor(strict.id, ORG, 'fra', 60, 'down', 10)])
    expect((await get(`/api/domains/${strict.id}`)).json().data.status).toBe('down')
  })

  it('fetches a page title and icon through the target guard, following redirects', async () => {
    const title = await get(`/api/domains/fetch-title?url=${encodeURIComponent(`${fixtureUrl}/moved`)}`)
    expect(title.json()).toEqual({ success: true, data: { title: 'Fixture & Co', url: `${fixtureUrl}/` } })
    const { id } = await create({ url: fixtureUrl })
    expect((await get(`/api/domains/${id}/icon`)).json().data).toEqual({ iconUrl: `${fixtureUrl}/static/icon.png` })
    expect((await get('/api/domains/fetch-title?url=ftp%3A%2F%2Fexample.org')).statusCode).toBe(400)
  })

  it('refuses to fetch private addresses unless the operator allows them', async () => {
    const guarded = await collectorForTest()
    const guardedApp = await buildCollectorApp(guarded.ctx)
    try {
      const response = await guardedApp.inject({
        method: 'GET',
        url: `/api/domains/fetch-title?url=${encodeURIComponent(fixtureUrl)}`,
        headers: { authorization: `Bearer ${guarded.apiKey}` },
      })
      expect(response.statusCode).toBe(422)
      expect(response.json()).toMatchObject({ success: false, error: 'TARGET_NOT_ALLOWED' })
    } finally {
      await guardedApp.close()
      await guarded.close()
    }
  })
})
