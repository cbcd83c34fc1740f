import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { DEFAULT_ORGANIZATION, newId } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { applyHeartbeats } from '../services/devices/apply-heartbeats.ts'
import { compressBody } from '../services/encoded-body.ts'
import { applyPings } from '../services/heartbeats/apply-pings.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { invalidateIngestedReads, invalidateReads } from '../services/read-cache/invalidate.ts'
import { storeResults } from '../services/results/store.ts'
import { readPublicStatusPage } from '../services/status-pages/read-public.ts'
import { authenticateWithUsers, collectorForTest, refreshSummariesOf, userCaller } from '../test-support.ts'
import { heartbeatFor, resultFor } from './test-helpers.ts'

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
    const renderings = await Promise.all(
      ['/status/acme', '/status/acme/feed.atom', '/status/acme/summary.json', '/status/acme/badge.svg'].map((url) =>
        app.inject({ method: 'GET', url, remoteAddress: fresh() }),
      ),
    )
    expect(renderings.map((rendering) => rendering.statusCode)).toEqual([200, 200, 200, 200])
    expect(renderings[0]!.body).toContain('We are looking into slow checkouts')
    expect(renderings[1]!.body).toContain('We are looking into slow checkouts')
    expect(renderings[2]!.json().activeIncidents).toEqual([expect.objectContaining({ title: 'Checkout slow' })])
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
      strangerDomain,
      'Stranger domain',
      'stranger-only',
      'Shop internal name',
    ]) {
      expect(response.body).not.toContain(secret)
      for (const rendering of renderings) expect(rendering.body).not.toContain(secret)
    }
  })

  it('serves an Atom feed of the incidents with their public updates', async () => {
    const tricky = (
      await post('/api/incidents', { title: 'Payments <b>& ]]> retries', affectedDomains: [shop] })
    ).json().data.id
    const feed = await app.inject({ method: 'GET', url: '/status/acme/feed.atom', remoteAddress: fresh() })
    expect(feed.body).toContain('<title>Acme status incidents</title>')
    expect(feed.body).toContain('<![CDATA[Payments &lt;b&gt;&amp; ]]&gt; retries (Open)]]>')
    expect(feed.body).not.toContain('<b>')
    expect(feed.statusCode).toBe(200)
    expect(feed.headers['content-type']).toMatch(/^application\/atom\+xml/)
    expect(feed.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom">')
    expect(feed.body).toMatch(/<entry>[\s\S]*Checkout slow \(Investigating\)[\s\S]*<\/entry>/)
    expect(feed.body).toContain('<id>http://localhost:80/status/acme#incident-')
    const again = await app.inject({
      method: 'GET',
      url: '/status/acme/feed.atom',
      remoteAddress: fresh(),
      headers: { 'if-none-match': feed.headers.etag as string },
    })
    expect(again.statusCode).toBe(304)
    await app.inject({ method: 'PUT', url: `/api/incidents/${tricky}`, headers, payload: { status: 'resolved' } })
  })

  it('serves SVG badges of the page and of each component, cacheable', async () => {
    const page = (await app.inject({ method: 'GET', url: '/api/status-pages', headers })).json().data
    const acme = page.find((p: { slug: string }) => p.slug === 'acme')
    const detail = (await app.inject({ method: 'GET', url: `/api/status-pages/${acme.id}`, headers })).json().data
    const [shopComponent, apiComponent] = detail.components
    const badge = (url: string) => app.inject({ method: 'GET', url, remoteAddress: fresh() })
    const overall = await badge('/status/acme/badge.svg')
    expect(overall.headers['content-type']).toMatch(/^image\/svg\+xml/)
    expect(overall.headers['cache-control']).toMatch(/max-age=60/)
    expect(overall.body).toMatch(/^<svg[^>]+aria-label="status: partial outage"/)
    expect((await badge('/status/acme/badge.svg?label=Acme&style=flat-square')).body).toContain(
      'aria-label="Acme: partial outage"',
    )
    const revalidated = await app.inject({
      method: 'GET',
      url: '/status/acme/badge.svg',
      remoteAddress: fresh(),
      headers: { 'if-none-match': overall.headers.etag as string },
    })
    expect(revalidated.statusCode).toBe(304)
    expect((await badge(`/status/acme/components/${shopComponent.id}/badge.svg`)).body).toContain(
      'aria-label="Shop: up"',
    )
    expect((await badge(`/status/acme/components/${apiComponent.id}/badge.svg?type=uptime`)).body).toContain(
      'aria-label="API: 50% (30d)"',
    )
    expect((await badge('/status/acme/badge.svg?style=neon')).statusCode).toBe(400)
    expect((await badge('/status/acme/components/nope/badge.svg')).statusCode).toBe(404)
    expect((await badge('/status/private-badge/badge.svg')).statusCode).toBe(404)
  })

  it('serves the summary to other sites with CORS and without credentials', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/status/acme/summary.json',
      remoteAddress: fresh(),
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    })
    expect(preflight.statusCode).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe('*')
    expect(preflight.headers['access-control-allow-methods']).toContain('GET')
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined()
    const summary = await app.inject({
      method: 'GET',
      url: '/status/acme/summary.json',
      remoteAddress: fresh(),
      headers: { origin: 'https://elsewhere.example' },
    })
    expect(summary.headers['access-control-allow-origin']).toBe('*')
    expect(summary.headers['access-control-allow-credentials']).toBeUndefined()
    expect(summary.json()).toMatchObject({
      name: 'Acme status',
      url: '/status/acme',
      status: 'partial_outage',
      components: [
        { name: 'Shop', status: 'up', uptime30d: 100 },
        { name: 'API', status: 'down', uptime30d: 50 },
      ],
    })
    const missing = await app.inject({
      method: 'GET',
      url: '/status/private-page/summary.json',
      remoteAddress: fresh(),
    })
    expect(missing.statusCode).toBe(404)
  })

  it('shows theme, accent, logo, links and times in the page time zone; refuses unsafe addresses', async () => {
    for (const bad of [
      { logoUrl: 'javascript:alert(1)' },
      { logoUrl: 'data:image/png;base64,AAAA' },
      { logoUrl: 'https://user:pass@cdn.example/logo.png' },
      { links: [{ label: 'x', url: 'javascript:alert(1)' }] },
      { links: [{ label: '', url: 'https://ok.example' }] },
      { timezone: 'Mars/Olympus' },
      { accentColor: 'red' },
      { theme: 'sepia' },
    ]) {
      const response = await post('/api/status-pages', { name: 'Bad', slug: 'bad-look', ...bad })
      expect(response.statusCode, JSON.stringify(bad)).toBe(400)
    }
    const created = (
      await post('/api/status-pages', {
        name: 'Looks',
        slug: 'looks',
        isPublic: true,
        theme: 'dark',
        accentColor: '#0a66c2',
        logoUrl: 'https://cdn.example/logo.png',
        links: [{ label: 'Support <24/7>', url: 'https://help.example/?a=1&b="2"' }],
        timezone: 'Europe/Berlin',
      })
    ).json().data
    expect(created).toMatchObject({ theme: 'dark', timezone: 'Europe/Berlin', logoUrl: 'https://cdn.example/logo.png' })
    await post(`/api/status-pages/${created.id}/domains`, { domainId: shop, displayName: 'Shop' })
    const incident = (await post('/api/incidents', { title: 'Berlin time', affectedDomains: [shop] })).json().data.id
    const html = await app.inject({ method: 'GET', url: '/status/looks', remoteAddress: fresh() })
    expect(html.body).toContain('<html lang="en" dir="ltr" data-theme="dark">')
    expect(html.body).toContain('style="--accent: #0a66c2"')
    expect(html.body).toContain('<img class="logo" src="https://cdn.example/logo.png" alt="Looks logo"')
    expect(html.body).toContain(
      '<a href="https://help.example/?a=1&amp;b=&quot;2&quot;" rel="noopener noreferrer nofollow">Support &lt;24/7&gt;</a>',
    )
    expect(html.body).toMatch(
      /started <time datetime="[^"]+">[A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d (CET|CEST|GMT\+1|GMT\+2)<\/time>/,
    )
    expect(html.headers['content-security-policy']).toContain("img-src 'self' data: https://cdn.example;")
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/status-pages/${created.id}`,
      headers,
      payload: { logoUrl: null, accentColor: null, theme: 'auto' },
    })
    expect(updated.json().data).toMatchObject({
      logoUrl: null,
      accentColor: null,
      theme: 'auto',
      timezone: 'Europe/Berlin',
    })
    const plain = await app.inject({ method: 'GET', url: '/status/looks', remoteAddress: fresh() })
    expect(plain.body).not.toContain('class="logo"')
    expect(plain.body).toContain('<html lang="en" dir="ltr">')
    await app.inject({ method: 'PUT', url: `/api/incidents/${incident}`, headers, payload: { status: 'resolved' } })
  })

  it("speaks the page's language, shows one view in another with ?lang=, and refuses an unknown locale", async () => {
    const created = (
      await post('/api/status-pages', { name: 'Sprachen', slug: 'sprachen', isPublic: true, locale: 'de' })
    ).json().data
    expect(created.locale).toBe('de')
    await post(`/api/status-pages/${created.id}/domains`, { domainId: shop, displayName: 'Shop' })
    const german = await app.inject({ method: 'GET', url: '/status/sprachen', remoteAddress: fresh() })
    expect(german.body).toContain('<html lang="de" dir="ltr">')
    expect(german.body).toContain('<h2 id="components">Komponenten</h2>')
    const arabic = await app.inject({ method: 'GET', url: '/status/sprachen?lang=ar', remoteAddress: fresh() })
    expect(arabic.body).toContain('<html lang="ar" dir="rtl">')
    expect(arabic.headers.etag).not.toBe(german.headers.etag)
    const feed = await app.inject({ method: 'GET', url: '/status/sprachen/feed.atom', remoteAddress: fresh() })
    expect(feed.body).toContain('<title>Störungen von Sprachen</title>')
    const unknown = await app.inject({ method: 'GET', url: '/status/sprachen?lang=xx', remoteAddress: fresh() })
    expect(unknown.statusCode).toBe(400)
    const refused = await app.inject({
      method: 'PUT',
      url: `/api/status-pages/${created.id}`,
      headers,
      payload: { locale: 'klingon' },
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.body).toContain('locale')
    const french = await app.inject({
      method: 'PUT',
      url: `/api/status-pages/${created.id}`,
      headers,
      payload: { locale: 'fr' },
    })
    expect(french.json().data.locale).toBe('fr')
    const public_ = await app.inject({
      method: 'GET',
      url: '/api/status-pages/sprachen/public',
      remoteAddress: fresh(),
    })
    expect(public_.json().data.locale).toBe('fr')
  })

  it("shows the words Guard wrote for a person's incident in the page's language, and a person's own words as written", async () => {
    const page = (
      await post('/api/status-pages', { name: 'Worte', slug: 'worte', isPublic: true, locale: 'de' })
    ).json().data
    await post(`/api/status-pages/${page.id}/domains`, { domainId: shop, displayName: 'Shop' })
    expect((await post('/api/incidents', { title: 'Kasse langsam', affectedDomains: [shop] })).statusCode).toBe(201)
    await post('/api/incidents', {
      title: 'Anmeldung gestört',
      description: 'Wir prüfen die Anmeldung.',
      affectedDomains: [shop],
    })
    const incidents = (await publicGet('worte')).json().data.incidents.active as Array<{
      title: string
      updates: Array<{ message: string }>
    }>
    const byTitle = Object.fromEntries(incidents.map((incident) => [incident.title, incident.updates[0]!.message]))
    expect(byTitle).toMatchObject({
      'Kasse langsam': 'Wird untersucht.',
      'Anmeldung gestört': 'Wir prüfen die Anmeldung.',
    })
  })

  it('shows a recurring maintenance window by its next occurrence', async () => {
    const hour = 3_600_000
    const start = Date.now() - 2 * 24 * hour + 2 * hour
    const windows = [
      { title: 'Nightly backup', startsAt: start, recurrence: 'daily' },
      { title: 'Finished one-off', startsAt: Date.now() - 5 * hour, recurrence: 'none' },
    ]
    for (const window of windows) {
      const response = await post('/api/maintenance-windows', {
        title: window.title,
        monitorId: shop,
        startsAt: new Date(window.startsAt).toISOString(),
        endsAt: new Date(window.startsAt + hour).toISOString(),
        recurrence: window.recurrence,
      })
      expect(response.statusCode).toBe(201)
    }
    const maintenance = (await publicGet('acme')).json().data.maintenance
    expect(maintenance).toEqual([
      {
        title: 'Nightly backup',
        startsAt: new Date(start + 2 * 24 * hour).toISOString(),
        endsAt: new Date(start + 2 * 24 * hour + hour).toISOString(),
        recurrence: 'daily',
        status: 'upcoming',
        components: ['Shop'],
      },
    ])
  })

  it('draws daily bars for a device from its offline incidents', async () => {
    const device = (await post('/api/devices', { name: 'Edge box' })).json().data.id
    await applyHeartbeats(harness.ctx.sql, harness.ctx.env, [heartbeatFor(device, ORG, 5)])
    await harness.ctx.sql.query(`UPDATE monitoring.devices SET created_at = now() - interval '10 days' WHERE id = $1`, [
      device,
    ])
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    await harness.ctx.sql.query(
      `INSERT INTO monitoring.incidents (id, organization_id, title, status, severity, cause, monitor_id, monitor_kind,
                                         detected_at, resolved_at)
       VALUES ('offline-1', $1, 'Edge box is offline', 'resolved', 'high', 'device-offline', $2, 'device', $3, $4)`,
      [ORG, device, `${yesterday}T06:00:00Z`, `${yesterday}T12:00:00Z`],
    )
    const page = (await post('/api/status-pages', { name: 'Devices', slug: 'devices-page', isPublic: true })).json()
      .data
    await post(`/api/status-pages/${page.id}/devices`, { deviceId: device })
    const [component] = (await publicGet('devices-page')).json().data.components
    expect(component).toMatchObject({ name: 'Edge box', kind: 'device', status: 'up' })
    expect(component.daily).toHaveLength(90)
    expect(component.daily.at(-2)).toMatchObject({ date: yesterday, uptime: 75 })
    expect(component.daily.at(-1).uptime).toBe(100)
    expect(component.daily.slice(0, 70).every((day: { uptime: null }) => day.uptime === null)).toBe(true)
    expect(component.uptime90d).toBeGreaterThan(97)
    expect(component.uptime90d).toBeLessThan(100)
    const html = await app.inject({ method: 'GET', url: '/status/devices-page', remoteAddress: fresh() })
    const day = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(yesterday))
    expect(html.body).toContain(`${day}: online 75% of the day`)
  })

  it('shows a heartbeat by its days, when it last reported and when it is next expected, with no latency chart', async () => {
    const created = await post('/api/heartbeats', { name: 'Backup job internal', every: 3600 })
    expect(created.statusCode, created.body).toBe(201)
    const heartbeat = created.json().data as { id: string; pingUrl: string }
    const pingedAt = Math.floor(Date.now() / 1000) * 1000 - 60_000
    // What the ping consumer does with a ping: its run state, then its result through the pipeline.
    const { results } = await applyPings(
      harness.ctx.sql,
      [
        {
          v: 1,
          id: newId(),
          monitorId: heartbeat.id,
          organizationId: ORG,
          type: 'success',
          receivedAt: new Date(pingedAt).toISOString(),
          method: 'POST',
          sourceIp: '192.0.2.10',
        },
      ],
      async () => {},
    )
    expect(results).toHaveLength(1)
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    await refreshSummariesOf(harness.ctx, results)
    const page = (await post('/api/status-pages', { name: 'Jobs', slug: 'jobs-page', isPublic: true })).json().data
    await post(`/api/status-pages/${page.id}/heartbeats`, { heartbeatId: heartbeat.id, displayName: 'Nightly backup' })
    await post(`/api/status-pages/${page.id}/domains`, { domainId: shop, displayName: 'Shop' })

    const response = await publicGet('jobs-page')
    expect(response.statusCode).toBe(200)
    const [job, shopComponent] = response.json().data.components
    expect(job).toMatchObject({
      name: 'Nightly backup',
      kind: 'heartbeat',
      status: 'up',
      uptime90d: 100,
      locations: [],
      heartbeat: {
        lastPingAt: new Date(pingedAt).toISOString(),
        nextExpectedAt: new Date(pingedAt + 3_600_000).toISOString(),
      },
    })
    expect(job.daily.at(-1)).toMatchObject({ uptime: 100, checks: 1, failures: 0 })
    expect(shopComponent.heartbeat).toBeUndefined()
    expect(shopComponent.locations.length).toBeGreaterThan(0)
    for (const secret of [heartbeat.id, new URL(heartbeat.pingUrl).pathname, 'Backup job internal', '192.0.2.10']) {
      expect(response.body).not.toContain(secret)
    }

    const html = (await app.inject({ method: 'GET', url: '/status/jobs-page', remoteAddress: fresh() })).body
    expect(html).toContain(`<p class="runs">Last reported: <time datetime="${new Date(pingedAt).toISOString()}">`)
    expect(html).toContain(`next expected: <time datetime="${new Date(pingedAt + 3_600_000).toISOString()}">`)
    const today = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(`${job.daily.at(-1).date}T00:00:00Z`),
    )
    expect(html).toContain(`${today}: 100% up (0 of 1 run failed)`)
    // The heartbeat (component 0) draws no chart; the domain (component 1) does, over the page's 24 hours.
    expect(html).not.toContain('data-component="0"')
    expect(html).toContain('data-component="1"')
    expect(html).toMatch(/id="latency-data"[^>]* data-until="\d{4}-\d\d-\d\dT/)
    const series = JSON.parse(html.match(/id="latency-data"[^>]*>(.*?)<\/script>/)![1]!)
    expect(series[0]).toEqual([])
    expect(html).not.toContain(heartbeat.id)

    const paused = await app.inject({
      method: 'PATCH',
      url: `/api/heartbeats/${heartbeat.id}`,
      headers,
      payload: { enabled: false },
    })
    expect(paused.statusCode).toBe(200)
    const [pausedJob] = (await publicGet('jobs-page')).json().data.components
    expect(pausedJob.heartbeat).toEqual({ lastPingAt: new Date(pingedAt).toISOString(), nextExpectedAt: null })
    const pausedHtml = (await app.inject({ method: 'GET', url: '/status/jobs-page', remoteAddress: fresh() })).body
    expect(pausedHtml).toContain('next expected: paused</p>')
  })

  it('keeps the public answer until a write or ingest of its organization, not of another', async () => {
    const cached = { ...harness.ctx, env: { ...harness.ctx.env, GUARD_STATUS_PAGE_CACHE_SECONDS: 300 } }
    const first = await readPublicStatusPage(cached, 'acme')
    expect(await readPublicStatusPage(cached, 'acme')).toBe(first)
    await invalidateReads({ ctx: harness.ctx, organizationIds: ['org-stranger'] })
    expect(await readPublicStatusPage(cached, 'acme')).toBe(first)
    const page = (await app.inject({ method: 'GET', url: '/api/status-pages', headers })).json().data
    const acme = page.find((p: { slug: string }) => p.slug === 'acme')
    await app.inject({ method: 'PUT', url: `/api/status-pages/${acme.id}`, headers, payload: { description: 'Fresh' } })
    const afterWrite = await readPublicStatusPage(cached, 'acme')
    expect(afterWrite).not.toBe(first)
    expect(afterWrite.page.description).toBe('Fresh')
    await invalidateReads({ ctx: harness.ctx, organizationIds: [ORG] })
    expect(await readPublicStatusPage(cached, 'acme')).not.toBe(afterWrite)
    await app.inject({ method: 'PUT', url: `/api/status-pages/${acme.id}`, headers, payload: { isPublic: false } })
    await expect(readPublicStatusPage(cached, 'acme')).rejects.toThrow()
    await app.inject({ method: 'PUT', url: `/api/status-pages/${acme.id}`, headers, payload: { isPublic: true } })
  })

  it('serves the previous answer while one made stale by ingested results is rebuilt', async () => {
    const env = { ...harness.ctx.env, GUARD_STATUS_PAGE_CACHE_SECONDS: 300, GUARD_SUMMARY_REFRESH_MS: 0 }
    const cached = { ...harness.ctx, env }
    const first = await readPublicStatusPage(cached, 'acme')
    await invalidateIngestedReads({ ctx: harness.ctx, organizationIds: [ORG], monitorIds: [] })
    // The visitor who finds it stale does not wait for the rebuild; the next one gets the new answer.
    expect(await readPublicStatusPage(cached, 'acme')).toBe(first)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const rebuilt = await readPublicStatusPage(cached, 'acme')
    expect(rebuilt).not.toBe(first)
    expect(rebuilt.etag).toBe(first.etag)
  })

  it('revalidates with the ETag to a 304 without a body', async () => {
    const first = await publicGet('acme')
    const again = await publicGet('acme', { 'if-none-match': first.headers.etag as string })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect((await publicGet('acme', { 'if-none-match': '"stale"' })).statusCode).toBe(200)
  })

  it('sends every public answer, errors included, never to be sniffed and without a referrer', async () => {
    for (const url of [
      '/status/acme',
      '/status/acme/summary.json',
      '/api/status-pages/acme/public',
      '/status/acme/badge.svg',
      '/status/acme/feed.atom',
      '/status-assets/status-page.js',
      '/status/no-such-page',
      '/status/no-such-page/summary.json',
      '/api/status-pages/no-such-page/public',
    ]) {
      const response = await app.inject({ method: 'GET', url, remoteAddress: fresh() })
      expect(response.headers['x-content-type-options'], url).toBe('nosniff')
      expect(response.headers['referrer-policy'], url).toBe('no-referrer')
    }
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

  it('builds a page once for concurrent first visitors, and once again for those who find it stale by ingest', async () => {
    let pageReads = 0
    const sql = new Proxy(harness.ctx.sql, {
      get(target, property) {
        if (property === 'query') {
          return (...args: Parameters<typeof target.query>) => {
            if (String(args[0]).includes('FROM monitoring.status_pages')) pageReads++
            return target.query(...args)
          }
        }
        const value = Reflect.get(target, property, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const env = { ...harness.ctx.env, GUARD_STATUS_PAGE_CACHE_SECONDS: 300, GUARD_SUMMARY_REFRESH_MS: 0 }
    const cached = { ...harness.ctx, sql, env }
    const firsts = await Promise.all(Array.from({ length: 5 }, () => readPublicStatusPage(cached, 'acme')))
    expect(new Set(firsts).size).toBe(1)
    expect(pageReads).toBe(1)
    await invalidateIngestedReads({ ctx: harness.ctx, organizationIds: [ORG], monitorIds: [shop] })
    const during = await Promise.all(Array.from({ length: 5 }, () => readPublicStatusPage(cached, 'acme')))
    expect(new Set(during)).toEqual(new Set(firsts))
    const rebuilt = await eventually(cached, (answer) => answer !== firsts[0])
    expect(rebuilt).not.toBe(firsts[0])
    expect(pageReads).toBe(2)
  })

  it('shows an ingested result of a monitor on the page on a read after the rebuild it triggers', async () => {
    const env = { ...harness.ctx.env, GUARD_STATUS_PAGE_CACHE_SECONDS: 300, GUARD_SUMMARY_REFRESH_MS: 0 }
    const cached = { ...harness.ctx, env }
    const before = await readPublicStatusPage(cached, 'acme')
    const shopBefore = before.page.components.find((component) => component.name === 'Shop')
    expect(shopBefore?.locations.find((location) => location.location === 'fra')?.status).toBe('up')
    // What the ingest does with a batch: state, time series, summaries, then the invalidation.
    const down = [resultFor(shop, ORG, 'fra', 60, 'down', 0)]
    await applyResultsToState(harness.ctx.sql, down)
    await storeResults(harness.ctx.timeseries, down)
    await refreshSummariesOf(harness.ctx, down)
    await invalidateIngestedReads({ ctx: harness.ctx, organizationIds: [ORG], monitorIds: [shop] })
    const after = await eventually(cached, (answer) => answer !== before)
    const shopAfter = after.page.components.find((component) => component.name === 'Shop')
    expect(shopAfter?.locations.find((location) => location.location === 'fra')?.status).toBe('down')
    expect(shopAfter?.status).not.toBe('up')
    expect(after.etag).not.toBe(before.etag)
  })

  it('sends the page compressed to browsers that accept it: the same bytes once decoded, revalidated by either tag', async () => {
    const cached = { ...harness.ctx, env: { ...harness.ctx.env, GUARD_STATUS_PAGE_CACHE_SECONDS: 300 } }
    const cachedApp = await buildCollectorApp(cached)
    try {
      const get = (url: string, extra: Record<string, string>) =>
        cachedApp.inject({ method: 'GET', url, remoteAddress: fresh(), headers: extra })
      const plain = await get('/api/status-pages/acme/public', {})
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.headers.vary).toBe('Accept-Encoding')
      const answer = await readPublicStatusPage(cached, 'acme')
      await get('/status/acme', {})
      await compressBody(answer.json)
      await compressBody(answer.rendered.get('html:en')!)
      const br = await get('/api/status-pages/acme/public', { 'accept-encoding': 'gzip;q=0.5, br' })
      expect(br.headers['content-encoding']).toBe('br')
      expect(br.headers.etag).toBe(`${plain.headers.etag?.toString().slice(0, -1)}-br"`)
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body)
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2)
      const gzip = await get('/api/status-pages/acme/public', { 'accept-encoding': 'gzip' })
      expect(gzip.headers['content-encoding']).toBe('gzip')
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body)
      const html = await get('/status/acme', { 'accept-encoding': 'br' })
      expect(html.headers['content-encoding']).toBe('br')
      expect(brotliDecompressSync(html.rawPayload).toString()).toContain('Shop')
      const none = await get('/api/status-pages/acme/public', { 'accept-encoding': 'identity, br;q=0, gzip;q=0' })
      expect(none.headers['content-encoding']).toBeUndefined()
      expect(none.body).toBe(plain.body)
      for (const tag of [plain.headers.etag, br.headers.etag, gzip.headers.etag]) {
        const revalidated = await get('/api/status-pages/acme/public', {
          'accept-encoding': 'br',
          'if-none-match': String(tag),
        })
        expect(revalidated.statusCode).toBe(304)
        expect(revalidated.headers.etag).toBe(br.headers.etag)
      }
    } finally {
      await cachedApp.close()
    }
  })
})

/** Reads the page until `done` holds: a rebuild serves the previous answer until it is built. */
async function eventually(
  ctx: Parameters<typeof readPublicStatusPage>[0],
  done: (answer: Awaited<ReturnType<typeof readPublicStatusPage>>) => boolean,
) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const answer = await readPublicStatusPage(ctx, 'acme')
    if (done(answer)) return answer
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('the page was not rebuilt within 5 s')
}
