import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { storeResults } from '../services/results/store.ts'
import { authenticateWithUsers, collectorForTest, refreshSummariesOf, userCaller } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

const ORG = DEFAULT_ORGANIZATION.id
let ip = 0
/** Each public request from its own address, so only the rate-limit test meets the per-IP limit. */
const fresh = () => `10.13.0.${++ip}`

describe('status pages', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let headers: Record<string, string>
  let shop: string
  let api: string
  let strangerDomain: string

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_STATUS_PAGE_CACHE_SECONDS: '0', GUARD_RATE_LIMIT_PUBLIC: '3' })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, { stranger: userCaller('stranger', ['org-stranger']) }),
    })
    headers = { authorization: `Bearer ${harness.apiKey}` }
    const create = async (url: string, name: string, auth = headers) =>
      (await app.inject({ method: 'POST', url: '/api/domains', headers: auth, payload: { url, name } })).json().data
        .id as string
    shop = await create('https://shop.example', 'Shop internal name')
    api = await create('https://api.example', 'API')
    strangerDomain = await create('https://stranger-only.example', 'Stranger domain', {
      authorization: 'Bearer user:stranger',
    })
    const results = [
      ...[3600 * 30, 600, 300].flatMap((ago) => [
        resultFor(shop, ORG, 'fra', ago, 'up', 40),
        resultFor(shop, ORG, 'nyc', ago, 'up', 120),
        resultFor(api, ORG, 'fra', ago, 'up', 20),
        resultFor(api, ORG, 'nyc', ago, 'down', 900),
      ]),
    ]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    await refreshSummariesOf(harness.ctx, results)
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  const post = (url: string, payload: Record<string, unknown>, auth = headers) =>
    app.inject({ method: 'POST', url, headers: auth, payload })
  const publicGet = (slug: string, extra: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: `/api/status-pages/${slug}/public`, remoteAddress: fresh(), headers: extra })

  it('creates, lists, updates and deletes a page; slugs are validated and unique', async () => {
    const created = await post('/api/status-pages', { name: 'Temp', slug: 'temp-page' })
    expect(created.statusCode).toBe(201)
    expect(created.json().data).toMatchObject({ name: 'Temp', slug: 'temp-page', isPublic: false, components: [] })
    const id = created.json().data.id
    expect((await post('/api/status-pages', { name: 'Again', slug: 'temp-page' })).statusCode).toBe(409)
    for (const slug of ['Bad Slug', 'a', '-x-', 'api', 'x'.repeat(65)]) {
      expect((await post('/api/status-pages', { name: 'n', slug })).statusCode).toBe(400)
    }
    const list = await app.inject({ method: 'GET', url: '/api/status-pages', headers })
    expect(list.json().data.map((page: { slug: string }) => page.slug)).toContain('temp-page')
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/status-pages/${id}`,
      headers,
      payload: { description: 'changed', isPublic: true },
    })
    expect(updated.json().data).toMatchObject({ description: 'changed', isPublic: true, name: 'Temp' })
    expect((await app.inject({ method: 'DELETE', url: `/api/status-pages/${id}`, headers })).statusCode).toBe(200)
    expect((await app.inject({ method: 'GET', url: `/api/status-pages/${id}`, headers })).statusCode).toBe(404)
    expect((await publicGet('temp-page')).statusCode).toBe(404)
  })

  it('adds, orders and removes components, refusing another organization monitor', async () => {
    const id = (await post('/api/status-pages', { name: 'Order', slug: 'order-page' })).json().data.id
    expect((await post(`/api/status-pages/${id}/domains`, { domainId: strangerDomain })).statusCode).toBe(404)
    expect((await post(`/api/status-pages/${id}/services`, { serviceId: shop })).statusCode).toBe(404)
    expect((await post(`/api/status-pages/${id}/domains`, { domainId: shop, displayName: 'Shop' })).statusCode).toBe(
      201,
    )
    expect((await post(`/api/status-pages/${id}/domains`, { domainId: shop })).statusCode).toBe(409)
    const page = (await post(`/api/status-pages/${id}/domains`, { domainId: api })).json().data
    expect(page.components.map((c: { displayName: string }) => c.displayName)).toEqual(['Shop', 'API'])
    const [first, second] = page.components.map((c: { id: string }) => c.id)
    const order = (componentIds: string[]) =>
      app.inject({ method: 'PUT', url: `/api/status-pages/${id}/components/order`, headers, payload: { componentIds } })
    expect((await order([second])).statusCode).toBe(400)
    expect((await order([second, second])).statusCode).toBe(400)
    const ordered = await order([second, first])
    expect(ordered.json().data.components.map((c: { displayName: string }) => c.displayName)).toEqual(['API', 'Shop'])
    const removed = await app.inject({ method: 'DELETE', url: `/api/status-pages/${id}/components/${first}`, headers })
    expect(removed.json().data.components.map((c: { displayName: string }) => c.displayName)).toEqual(['API'])
    const again = await app.inject({ method: 'DELETE', url: `/api/status-pages/${id}/components/${first}`, headers })
    expect(again.statusCode).toBe(404)
  })

  it('serves a public page with state, 90 daily bars and latency per location, without internal ids', async () => {
    const page = (await post('/api/status-pages', { name: 'Acme status', slug: 'acme', isPublic: true })).json().data
    await post(`/api/status-pages/${page.id}/domains`, { domainId: shop, displayName: 'Shop' })
    const withApi = (await post(`/api/status-pages/${page.id}/domains`, { domainId: api })).json().data
    const response = await publicGet('acme')
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toMatch(/max-age=\d+/)
    expect(response.headers.etag).toMatch(/^"/)
    const body = response.json().data
    expect(body).toMatchObject({ name: 'Acme status', slug: 'acme', status: 'partial_outage' })
    expect(body.components.map((c: { name: string }) => c.name)).toEqual(['Shop', 'API'])
    const [shopComponent, apiComponent] = body.components
    expect(shopComponent.status).toBe('up')
    expect(apiComponent.status).toBe('down')
    expect(shopComponent.daily).toHaveLength(90)
    expect(shopComponent.daily.at(-1)).toMatchObject({ date: new Date().toISOString().slice(0, 10), uptime: 100 })
    expect(shopComponent.uptime90d).toBe(100)
    expect(apiComponent.uptime90d).toBe(50)
    expect(apiComponent.locations.map((l: { location: string; status: string }) => [l.location, l.status])).toEqual([
      ['fra', 'up'],
      ['nyc', 'down'],
    ])
    const nyc = shopComponent.locations.find((l: { location: string }) => l.location === 'nyc')
    expect(nyc.points.length).toBeGreaterThanOrEqual(1)
    expect(nyc.points.every((p: { avg: number }) => p.avg === 120)).toBe(true)
    for (const secret of [
      shop,
      api,
      page.id,
      ORG,
      'Shop internal name',
      ...withApi.components.map((c: { id: string }) => c.id),
    ]) {
      expect(response.body).not.toContain(secret)
    }
  })

  it('shows incidents of its components with public updates, never comments, ids or other incidents', async () => {
    const other = (
      await app.inject({ method: 'POST', url: '/api/domains', headers, payload: { url: 'https://elsewhere.example' } })
    ).json().data.id
    const incident = (
      await post('/api/incidents', { title: 'Checkout slow', severity: 'high', affectedDomains: [shop, other] })
    ).json().data.id
    expect(incident).toEqual(expect.any(String))
    await post(`/api/incidents/${incident}/updates`, {
      message: 'We are looking into slow checkouts',
      status: 'investigating',
    })
    await post(`/api/incidents/${incident}/comments`, { content: 'internal-note-xyz', isInternal: true })
    await post(`/api/incidents/${incident}/comments`, { content: 'public-comment-xyz', isInternal: false })
    await post('/api/incidents', { title: 'Unrelated outage', affectedDomains: [other] })
    const response = await publicGet('acme')
    const active = response.json().data.incidents.active
    expect(active).toHaveLength(1)
    expect(active[0]).toMatchObject({ title: 'Checkout slow', severity: 'high', components: ['Shop'] })
    expect(active[0].updates.map((u: { message: string }) => u.message)).toContain('We are looking into slow checkouts')
    for (const secret of [
      incident,
      other,
      'internal-note-xyz',
      'public-comment-xyz',
      'Unrelated outage',
      'elsewhere',
    ]) {
      expect(response.body).not.toContain(secret)
    }
  })

  it('revalidates with the ETag to a 304 without a body', async () => {
    const first = await publicGet('acme')
    const again = await publicGet('acme', { 'if-none-match': first.headers.etag as string })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect((await publicGet('acme', { 'if-none-match': '"stale"' })).statusCode).toBe(200)
  })

  it('answers 404 for private and unknown pages, and for another organization page by id', async () => {
    await post('/api/status-pages', { name: 'Private', slug: 'private-page', isPublic: false })
    const hidden = await publicGet('private-page')
    expect(hidden.statusCode).toBe(404)
    expect(hidden.body).not.toContain('Private')
    expect((await publicGet('no-such-page')).statusCode).toBe(404)
  })

  it('limits public reads per client IP', async () => {
    const statuses: number[] = []
    for (let attempt = 0; attempt < 4; attempt++) {
      statuses.push(
        (await app.inject({ method: 'GET', url: '/api/status-pages/acme/public', remoteAddress: '10.99.0.1' }))
          .statusCode,
      )
    }
    expect(statuses).toEqual([200, 200, 200, 429])
    expect((await publicGet('acme')).statusCode).toBe(200)
  })
})
