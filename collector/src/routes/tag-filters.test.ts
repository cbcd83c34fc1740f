import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { collectorForTest } from '../test-support.ts'

/** The same three subjects of every kind: the filter must pick the same names on every list route. */
const TAGGED = [
  { name: 'payments-prod', tags: ['Env:prod', 'team:payments'] },
  { name: 'search-prod', tags: ['env:prod', 'team:search', 'backup'] },
  { name: 'payments-staging', tags: ['env:staging', 'team:payments'] },
]

describe('tag filters on every list route', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })
  const get = (url: string) => app.inject({ method: 'GET', url, headers: headers() })
  const post = (url: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url, headers: headers(), payload })

  beforeAll(async () => {
    harness = await collectorForTest()
    app = await buildCollectorApp(harness.ctx)
    for (const [i, { name, tags }] of TAGGED.entries()) {
      const created = [
        await post('/api/domains', { url: `https://${name}.example`, name, tags }),
        await post('/api/services', {
          name,
          protocol: 'tcp',
          protocolConfig: { host: `${name}.example`, port: 22 },
          tags,
        }),
        await post('/api/heartbeats', { name, every: 3600, tags }),
        await post('/api/devices', { name, tags }),
      ]
      for (const response of created) expect(response.statusCode, `${i} ${response.body}`).toBe(201)
    }
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  const lists = [
    '/api/domains?limit=50',
    '/api/domains?offset=0',
    '/api/services?',
    '/api/heartbeats?',
    '/api/devices?',
  ]
  const namesOf = async (url: string) => {
    const response = await get(url)
    expect(response.statusCode, response.body).toBe(200)
    return (response.json().data as { name: string }[]).map((item) => item.name).sort()
  }

  it.each(lists)('%s: every tag named must match, a bare key or key:* matching any of its values', async (list) => {
    expect(await namesOf(`${list}&tag=env:prod`)).toEqual(['payments-prod', 'search-prod'])
    expect(await namesOf(`${list}&tag=env:prod&tag=team:payments`)).toEqual(['payments-prod'])
    expect(await namesOf(`${list}&tag=ENV:staging`)).toEqual(['payments-staging'])
    expect(await namesOf(`${list}&tag=backup`)).toEqual(['search-prod'])
    expect(await namesOf(`${list}&tag=team`)).toEqual(['payments-prod', 'payments-staging', 'search-prod'])
    expect(await namesOf(`${list}&tag=team:*&tag=env:staging`)).toEqual(['payments-staging'])
    expect(await namesOf(`${list}&tag=env:pro`)).toEqual([])
    expect(await namesOf(`${list}&tag=region`)).toEqual([])
    expect(await namesOf(list)).toHaveLength(3)
  })

  it('counts only the tagged monitors and devices in the dashboard stats', async () => {
    const stats = (await get('/api/dashboard/stats?tag=team:payments&tag=env')).json().data
    expect([stats.domains.total, stats.services.total, stats.heartbeats.total, stats.devices.total]).toEqual([
      2, 2, 2, 2,
    ])
    const prod = (await get('/api/dashboard/stats?tag=backup')).json().data
    expect([prod.domains.total, prod.services.total, prod.heartbeats.total, prod.devices.total]).toEqual([1, 1, 1, 1])
    expect((await get('/api/dashboard/stats')).json().data.domains.total).toBe(3)
    expect((await get('/api/dashboard/stats?tag=bad%20key')).statusCode).toBe(400)
  })

  it.each([
    ['domains', 'domains'],
    ['heartbeats', 'heartbeats'],
    ['devices', 'devices'],
  ])('reports on the tagged %s only', async (report, field) => {
    const response = await get(`/api/reports/${report}?tag=team:payments&tag=env:staging`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().data[field].map((row: { name: string }) => row.name)).toEqual(['payments-staging'])
    expect((await get(`/api/reports/${report}`)).json().data[field]).toHaveLength(3)
    expect((await get(`/api/reports/incidents?tag=team`)).statusCode).toBe(200)
  })

  it('filters the MCP status tools by tags', async () => {
    const callTool = async (name: string, args: Record<string, unknown>) => {
      const response = await app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...headers(), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
      })
      expect(response.statusCode, response.body).toBe(200)
      return response.json().result as { isError?: boolean; structuredContent?: Record<string, { name: string }[]> }
    }
    const args = { organizationId: DEFAULT_ORGANIZATION.id, tags: ['team:payments', 'env:prod'] }
    for (const [tool, field] of [
      ['get_domains_status', 'domains'],
      ['get_heartbeats_status', 'heartbeats'],
      ['get_devices_status', 'devices'],
    ] as const) {
      const result = await callTool(tool, args)
      expect(result.isError, tool).toBeFalsy()
      expect(
        result.structuredContent?.[field]?.map((item) => item.name),
        tool,
      ).toEqual(['payments-prod'])
    }
  })

  it('counts only matching domains in the standard and alternative pagination', async () => {
    expect((await get('/api/domains?tag=team:payments')).json().pagination.total).toBe(2)
    expect((await get('/api/domains?offset=0&tag=team:payments')).json().pagination.total).toBe(2)
  })

  it.each(lists)('%s: a malformed tag is a 400 naming the query field', async (list) => {
    const response = await get(`${list}&tag=${encodeURIComponent('bad key')}`)
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toMatch(/tag/)
  })

  it('stores tags normalised and refuses more than 20 or a bad one with a 400 naming it', async () => {
    const domain = (await get('/api/domains?offset=0&tag=env:prod&tag=team:payments')).json().data[0]
    expect(domain.tags).toEqual(['env:prod', 'team:payments'])
    const tooMany = await post('/api/devices', { name: 'x', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })
    expect(tooMany.statusCode).toBe(400)
    expect(tooMany.json().message).toMatch(/tags/)
    const bad = await post('/api/heartbeats', { name: 'x', every: 60, tags: ['env:'] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toMatch(/tags\.0/)
  })
})
