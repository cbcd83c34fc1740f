import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { sampleHeartbeat } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { createApiKey } from '../services/api-keys/create.ts'
import { applyHeartbeats } from '../services/devices/apply-heartbeats.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { storeResults } from '../services/results/store.ts'
import { collectorForTest, refreshSummariesOf } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

const ORG = DEFAULT_ORGANIZATION.id

describe('dashboard stats', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let headers: Record<string, string>
  let firstDomain: string
  let firstDevice: string

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
    headers = { authorization: `Bearer ${harness.apiKey}` }
    const post = async (url: string, payload: Record<string, unknown>) =>
      (await app.inject({ method: 'POST', url, headers, payload })).json().data
    const domains = await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) => post('/api/domains', { url: `https://${name}.example` })),
    )
    const services = await Promise.all(
      ['s1', 's2', 's3'].map((name) =>
        post('/api/services', { name, protocol: 'tcp', protocolConfig: { host: `${name}.example`, port: 22 } }),
      ),
    )
    const devices = await Promise.all(['d1', 'd2'].map((name) => post('/api/devices', { name })))
    firstDomain = domains[0].id
    firstDevice = devices[0].id
    // Domains a, b up; c down; d never checked. Services s1 up, s2 down, s3 never checked.
    const results = [120, 60].flatMap((ago) => [
      resultFor(domains[0].id, ORG, 'fra', ago, 'up', 10),
      resultFor(domains[1].id, ORG, 'fra', ago, 'up', 10),
      resultFor(domains[2].id, ORG, 'fra', ago, 'down', 10),
      resultFor(services[0].id, ORG, 'fra', ago, 'up', 10),
      resultFor(services[1].id, ORG, 'fra', ago, 'down', 10),
    ])
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    await refreshSummariesOf(harness.ctx, results)
    await applyHeartbeats(harness.ctx.sql, harness.ctx.env, [
      {
        v: 1,
        deviceId: devices[0].id,
        organizationId: ORG,
        timestamp: new Date().toISOString(),
        receivedAt: new Date().toISOString(),
        heartbeat: sampleHeartbeat(devices[0].id),
      },
    ])
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('equals the counts of the underlying lists', async () => {
    const get = async (url: string) => (await app.inject({ method: 'GET', url, headers })).json().data
    const [stats, domains, services, devices] = await Promise.all([
      get('/api/dashboard/stats'),
      get('/api/domains'),
      get('/api/services'),
      get('/api/devices'),
    ])
    const count = <T>(items: T[], keep: (item: T) => boolean) => items.filter(keep).length
    type Item = { status: string; isOnline: boolean }
    expect(stats.domains).toMatchObject({
      total: domains.length,
      up: count(domains, (d: Item) => d.status === 'up'),
      down: count(domains, (d: Item) => d.status === 'down'),
    })
    expect(stats.services).toEqual({
      total: services.length,
      up: count(services, (s: Item) => s.status === 'up'),
      down: count(services, (s: Item) => s.status === 'down'),
    })
    expect(stats.devices).toEqual({
      total: devices.length,
      online: count(devices, (d: Item) => d.isOnline),
      offline: count(devices, (d: Item) => !d.isOnline),
    })
    expect(stats).toMatchObject({
      domains: { total: 4, up: 2, down: 1 },
      services: { total: 3, up: 1, down: 1 },
      devices: { total: 2, online: 1, offline: 1 },
    })
    expect(stats.domains.uptime).toBeCloseTo((100 + 100 + 0) / 3, 1)
    expect(stats.incidents).toEqual({ active: expect.any(Number), critical: expect.any(Number) })
  })

  it('lists recent activity newest first, paginated, with subjects and links, only of the organization', async () => {
    const insert = (id: string, org: string, type: string, summary: string, subject: string, minutesAgo: number) =>
      harness.ctx.sql.query(
        `INSERT INTO monitoring.activity (event_id, organization_id, type, summary, subject_id, occurred_at)
         VALUES ($1, $2, $3, $4, $5, now() - make_interval(mins => $6))`,
        [id, org, type, summary, subject, minutesAgo],
      )
    // Only the rows seeded here: the creations of beforeAll are the next test's subject.
    await harness.ctx.sql.query('DELETE FROM monitoring.activity WHERE organization_id = $1', [ORG])
    await insert('e1', ORG, 'monitor.down', 'a went down', firstDomain, 30)
    await insert('e2', ORG, 'device.offline', 'd1 went offline', firstDevice, 20)
    await insert('e3', ORG, 'monitor.up', 'gone is back up', 'deleted-monitor', 10)
    await insert('e4', 'org-other', 'monitor.down', 'someone else', 'x', 5)
    const first = (await app.inject({ method: 'GET', url: '/api/dashboard/recent-activity?limit=2', headers })).json()
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 })
    expect(first.data.map((item: { id: string }) => item.id)).toEqual(['e3', 'e2'])
    expect(first.data[0]).toMatchObject({ type: 'monitor.up', link: null, subject: { name: null } })
    expect(first.data[1]).toMatchObject({
      type: 'device.offline',
      message: 'd1 went offline',
      subject: { kind: 'device', id: firstDevice, name: 'd1' },
      link: `/devices/${firstDevice}`,
    })
    const second = (
      await app.inject({ method: 'GET', url: '/api/dashboard/recent-activity?limit=2&page=2', headers })
    ).json()
    expect(second.data).toEqual([
      expect.objectContaining({ id: 'e1', subject: { kind: 'domain', id: firstDomain, name: 'a.example' } }),
    ])
    expect(second.data[0].link).toBe(`/domains/${firstDomain}`)
    expect(JSON.stringify([first, second])).not.toContain('someone else')
    const bad = await app.inject({ method: 'GET', url: '/api/dashboard/recent-activity?limit=1000', headers })
    expect(bad.statusCode).toBe(400)
  })

  it('lists monitors, devices and status pages created and deleted', async () => {
    const call = async (method: 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
      (await app.inject({ method, url, headers, ...(payload ? { payload } : {}) })).json().data
    const domain = await call('POST', '/api/domains', { url: 'https://feed.example', name: 'Feed domain' })
    const service = await call('POST', '/api/services', {
      name: 'Feed service',
      protocol: 'tcp',
      protocolConfig: { host: 'feed.example', port: 22 },
    })
    const device = await call('POST', '/api/devices', { name: 'Feed device' })
    const page = await call('POST', '/api/status-pages', { name: 'Feed page', slug: 'feed-page' })
    await call('DELETE', `/api/services/${service.id}`)
    await call('DELETE', `/api/devices/${device.id}`)
    await call('DELETE', `/api/status-pages/${page.id}`)
    const feed = (await app.inject({ method: 'GET', url: '/api/dashboard/recent-activity?limit=7', headers })).json()
    const items = feed.data.map((item: { type: string; message: string; link: string | null; subject: object }) => [
      item.type,
      item.message,
      item.link,
      item.subject,
    ])
    expect(items).toEqual(
      expect.arrayContaining([
        [
          'domain.created',
          'Domain Feed domain created',
          `/domains/${domain.id}`,
          { kind: 'domain', id: domain.id, name: 'Feed domain' },
        ],
        ['service.created', 'Service Feed service created', null, { kind: 'service', id: service.id, name: null }],
        ['service.deleted', 'Service Feed service deleted', null, { kind: 'service', id: service.id, name: null }],
        ['device.created', 'Device Feed device created', null, { kind: 'device', id: device.id, name: null }],
        ['device.deleted', 'Device Feed device deleted', null, { kind: 'device', id: device.id, name: null }],
        [
          'status-page.created',
          'Status page Feed page created',
          null,
          expect.objectContaining({ kind: 'status-page' }),
        ],
        [
          'status-page.deleted',
          'Status page Feed page deleted',
          null,
          expect.objectContaining({ kind: 'status-page' }),
        ],
      ]),
    )
    const live = await call('POST', '/api/status-pages', { name: 'Live page', slug: 'live-page' })
    const newest = (await app.inject({ method: 'GET', url: '/api/dashboard/recent-activity?limit=1', headers })).json()
    expect(newest.data[0]).toMatchObject({ type: 'status-page.created', link: `/status-pages/${live.id}` })
  })

  it('answers a key that reads only heartbeats, with their counts', async () => {
    const { key } = await createApiKey(harness.ctx.sql, {
      organizationId: ORG,
      name: 'heartbeats only',
      permissions: ['heartbeats:read'],
    })
    const response = await app.inject({
      method: 'GET',
      url: '/api/dashboard/stats',
      headers: { authorization: `Bearer ${key}` },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().data.heartbeats).toEqual({
      total: expect.any(Number),
      up: expect.any(Number),
      down: expect.any(Number),
    })
  })

  it('refuses a key without any monitor read permission', async () => {
    const { key } = await createApiKey(harness.ctx.sql, {
      organizationId: ORG,
      name: 'pages only',
      permissions: ['status-pages:read'],
    })
    const response = await app.inject({
      method: 'GET',
      url: '/api/dashboard/stats',
      headers: { authorization: `Bearer ${key}` },
    })
    expect(response.statusCode).toBe(403)
  })
})
