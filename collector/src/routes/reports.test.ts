import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { createApiKey } from '../services/api-keys/create.ts'
import { applyHeartbeats } from '../services/devices/apply-heartbeats.ts'
import { storeHeartbeats } from '../services/devices/store-heartbeats.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { storeResults } from '../services/results/store.ts'
import { collectorForTest } from '../test-support.ts'
import { heartbeatFor, resultFor } from './test-helpers.ts'

const ORG = DEFAULT_ORGANIZATION.id

describe('reports', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let headers: Record<string, string>
  let shop: string

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
    headers = { authorization: `Bearer ${harness.apiKey}` }
    const post = async (payload: Record<string, unknown>) =>
      (await app.inject({ method: 'POST', url: '/api/domains', headers, payload })).json().data.id as string
    shop = await post({ url: 'https://shop.example', name: 'Shop, "main"' })
    const quiet = await post({ url: 'https://quiet.example', name: 'Quiet' })
    const results = [
      resultFor(shop, ORG, 'fra', 600, 'up', 100),
      resultFor(shop, ORG, 'fra', 300, 'up', 200),
      resultFor(shop, ORG, 'nyc', 600, 'down', 1000),
      resultFor(shop, ORG, 'nyc', 300, 'up', 300),
      // Older than a day: only the 7d and 30d reports count it.
      resultFor(shop, ORG, 'fra', 3 * 86_400, 'up', 100),
    ]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    expect(quiet).toBeTruthy()
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('reports per domain and per location with totals over the range', async () => {
    const day = (await app.inject({ method: 'GET', url: '/api/reports/domains?range=24h', headers })).json().data
    const row = day.domains.find((domain: { id: string }) => domain.id === shop)
    expect(row).toMatchObject({ checks: 4, failures: 1, uptime: 75, avgResponseTime: 400 })
    expect(row.locations).toEqual([
      expect.objectContaining({ location: 'fra', checks: 2, failures: 0, uptime: 100, avgResponseTime: 150 }),
      expect.objectContaining({ location: 'nyc', checks: 2, failures: 1, uptime: 50, avgResponseTime: 650 }),
    ])
    expect(day.totals).toMatchObject({ domains: 2, checks: 4, failures: 1, uptime: 75 })
    const week = (await app.inject({ method: 'GET', url: '/api/reports/domains?range=7d', headers })).json().data
    expect(week.totals.checks).toBe(5)
    expect((await app.inject({ method: 'GET', url: '/api/reports/domains?range=1y', headers })).statusCode).toBe(400)
  })

  it('answers CSV with a filename that parses back into the JSON rows', async () => {
    const json = (await app.inject({ method: 'GET', url: '/api/reports/domains?range=7d', headers })).json().data
    for (const request of [
      { url: '/api/reports/domains?range=7d&format=csv', headers },
      { url: '/api/reports/domains?range=7d', headers: { ...headers, accept: 'text/csv' } },
    ]) {
      const response = await app.inject({ method: 'GET', ...request })
      expect(response.headers['content-type']).toMatch(/^text\/csv/)
      expect(response.headers['content-disposition']).toBe('attachment; filename="domains-report-7d.csv"')
      const rows = parse(response.body, {
        columns: true,
        cast: (value, context) =>
          context.header || ['id', 'name', 'url'].includes(String(context.column))
            ? value
            : value === ''
              ? null
              : Number(value),
      })
      expect(rows).toEqual(json.domains.map(({ locations: _locations, ...row }: Record<string, unknown>) => row))
    }
  })

  it('reports incidents by severity with MTTR and the longest, and as CSV', async () => {
    const post = async (url: string, payload: Record<string, unknown>) =>
      (await app.inject({ method: 'POST', url, headers, payload })).json().data
    await post('/api/incidents', { title: 'Open one', severity: 'critical' })
    const resolved = await post('/api/incidents', { title: 'Short one', severity: 'low' })
    await harness.ctx.sql.query(
      `UPDATE monitoring.incidents SET detected_at = now() - interval '2 hours', acknowledged_at = now() - interval '110 minutes',
              resolved_at = now() - interval '1 hour', status = 'resolved' WHERE id = $1`,
      [resolved.id],
    )
    const report = (await app.inject({ method: 'GET', url: '/api/reports/incidents?range=7d', headers })).json().data
    expect(report.total).toBe(2)
    expect(report.bySeverity).toEqual({ low: 1, medium: 0, high: 0, critical: 1 })
    expect(report.mttr).toBe(3600)
    expect(report.mtta).toBe(600)
    expect(report.longest).toMatchObject({ title: 'Short one', durationSeconds: 3600 })
    const csv = await app.inject({ method: 'GET', url: '/api/reports/incidents?range=7d&format=csv', headers })
    expect(csv.headers['content-disposition']).toBe('attachment; filename="incidents-report-7d.csv"')
    const rows = parse(csv.body, {
      columns: true,
      cast: (value, context) =>
        context.header ? value : context.column === 'durationSeconds' ? Number(value) : value === '' ? null : value,
    })
    // An open incident's duration runs with the clock, so the CSV (read a moment later) may be a second or two longer.
    const stillRunning = (list: Array<Record<string, unknown>>) =>
      list.map(({ durationSeconds, ...row }) => (row.status === 'open' ? row : { ...row, durationSeconds }))
    expect(stillRunning(rows)).toEqual(stillRunning(report.incidents))
    const openDuration = (list: Array<Record<string, unknown>>) =>
      Number(list.find((row) => row.status === 'open')?.durationSeconds)
    expect(openDuration(rows) - openDuration(report.incidents)).toBeGreaterThanOrEqual(0)
    expect(openDuration(rows) - openDuration(report.incidents)).toBeLessThanOrEqual(2)
  })

  it('reports device availability and average and peak usage, and as CSV', async () => {
    const post = async (name: string) =>
      (await app.inject({ method: 'POST', url: '/api/devices', headers, payload: { name } })).json().data.id as string
    const busy = await post('Busy box')
    const silent = await post('Silent box')
    const beats = [
      heartbeatFor(busy, ORG, 7200, { cpu: 20, memory: 40, disk: 30 }),
      heartbeatFor(busy, ORG, 600, { cpu: 60, memory: 50, disk: 31 }),
      // Two days old: only the 7d report counts it.
      heartbeatFor(busy, ORG, 2 * 86_400, { cpu: 100, memory: 90, disk: 29 }),
    ]
    await storeHeartbeats(harness.ctx.timeseries, beats)
    await applyHeartbeats(harness.ctx.sql, harness.ctx.env, [heartbeatFor(busy, ORG, 1)])
    await harness.ctx.sql.query(`UPDATE monitoring.devices SET created_at = now() - interval '3 days' WHERE id = $1`, [
      busy,
    ])
    await harness.ctx.sql.query(
      `INSERT INTO monitoring.incidents (id, organization_id, title, status, severity, cause, monitor_id, monitor_kind,
                                         detected_at, resolved_at)
       VALUES ('busy-offline', $1, 'Busy box is offline', 'resolved', 'high', 'device-offline', $2, 'device',
               now() - interval '5 hours', now() - interval '4 hours')`,
      [ORG, busy],
    )
    const dayResponse = await app.inject({ method: 'GET', url: '/api/reports/devices?range=24h', headers })
    expect(dayResponse.statusCode, dayResponse.body).toBe(200)
    const day = dayResponse.json().data
    const row = (id: string) => day.devices.find((device: { id: string }) => device.id === id)
    expect(row(busy)).toMatchObject({
      name: 'Busy box',
      online: true,
      availability: 95.83,
      offlineSeconds: 3600,
      offlineIncidents: 1,
      heartbeats: 2,
      cpuAvg: 40,
      cpuPeak: 60,
      memoryAvg: 45,
      memoryPeak: 50,
      diskAvg: 30.5,
      diskPeak: 31,
    })
    expect(row(silent)).toMatchObject({ availability: null, heartbeats: 0, cpuAvg: null, cpuPeak: null })
    expect(day.totals).toMatchObject({
      devices: 2,
      online: 1,
      availability: 95.83,
      offlineSeconds: 3600,
      heartbeats: 2,
    })
    const week = (await app.inject({ method: 'GET', url: '/api/reports/devices?range=7d', headers })).json().data
    expect(week.devices.find((device: { id: string }) => device.id === busy)).toMatchObject({
      heartbeats: 3,
      cpuPeak: 100,
      cpuAvg: 60,
    })
    const csv = await app.inject({
      method: 'GET',
      url: '/api/reports/devices?range=24h',
      headers: { ...headers, accept: 'text/csv' },
    })
    expect(csv.headers['content-disposition']).toBe('attachment; filename="devices-report-24h.csv"')
    const rows = parse(csv.body, {
      columns: true,
      cast: (value, context) => {
        if (context.header || ['id', 'name'].includes(String(context.column))) return value
        if (context.column === 'online') return value === 'true'
        return value === '' ? null : Number(value)
      },
    })
    expect(rows).toEqual(day.devices)
  })

  it('refuses a key without reports:read', async () => {
    const { key } = await createApiKey(harness.ctx.sql, {
      organizationId: ORG,
      name: 'd',
      permissions: ['domains:read'],
    })
    const response = await app.inject({
      method: 'GET',
      url: '/api/reports/domains',
      headers: { authorization: `Bearer ${key}` },
    })
    expect(response.statusCode).toBe(403)
  })
})
