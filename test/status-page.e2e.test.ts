import { mkdir, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { DEFAULT_ORGANIZATION, newId } from '@guard/shared'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { resultFor } from '../collector/src/routes/test-helpers.ts'
import { applyPings } from '../collector/src/services/heartbeats/apply-pings.ts'
import { applyResultsToState } from '../collector/src/services/monitor-state/apply-results.ts'
import { storeResults } from '../collector/src/services/results/store.ts'
import {
  authenticateWithUsers,
  collectorForTest,
  refreshSummariesOf,
  userCaller,
} from '../collector/src/test-support.ts'
import { CHROMIUM, launchChromium } from './support/console-browser.ts'
import { axeViolations } from './support/status-page-browser.ts'

const ARTIFACTS = new URL('./artifacts/status-page/', import.meta.url)
const ORG = DEFAULT_ORGANIZATION.id

describe.skipIf(!CHROMIUM)('the public status page in headless Chromium', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let browser: Browser
  let base: string
  const secrets: string[] = []

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true })
    harness = await collectorForTest({ GUARD_STATUS_PAGE_CACHE_SECONDS: '0' })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, { stranger: userCaller('stranger', ['org-stranger']) }),
    })
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const post = async (url: string, payload: Record<string, unknown>, auth = headers) =>
      (await app.inject({ method: 'POST', url, headers: auth, payload })).json().data
    const shop = (await post('/api/domains', { url: 'https://shop.example', name: 'shop-internal-name' })).id
    const api = (await post('/api/domains', { url: 'https://api.example', name: 'API' })).id
    const stranger = await post(
      '/api/domains',
      { url: 'https://stranger.example', name: 'stranger-monitor' },
      { authorization: 'Bearer user:stranger' },
    )
    const results = [86_400 * 3, 3600 * 5, 1800, 600, 300].flatMap((ago) => [
      resultFor(shop, ORG, 'fra', ago, 'up', 40 + (ago % 7)),
      resultFor(shop, ORG, 'nyc', ago, 'up', 110 + (ago % 11)),
      resultFor(api, ORG, 'fra', ago, 'up', 20),
      resultFor(api, ORG, 'nyc', ago, ago === 300 ? 'down' : 'up', 300),
    ])
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    await refreshSummariesOf(harness.ctx, results)
    const page = await post('/api/status-pages', { name: 'Acme status', slug: 'acme', isPublic: true })
    await post(`/api/status-pages/${page.id}/domains`, { domainId: shop, displayName: 'Shop' })
    await post(`/api/status-pages/${page.id}/domains`, { domainId: api })
    await post('/api/status-pages', { name: 'Hidden page', slug: 'hidden', isPublic: false })
    secrets.push(shop, api, stranger.id, page.id, ORG, 'shop-internal-name', 'stranger-monitor')
    await app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await harness?.close()
  })

  it('shows both components, 90 uptime bars and one latency series per location, accessibly', async () => {
    for (const [name, viewport, colorScheme] of [
      ['desktop-light', { width: 1200, height: 1400 }, 'light'],
      ['phone-dark', { width: 360, height: 1400 }, 'dark'],
    ] as const) {
      // The page's CSP allows only its own scripts; axe is injected by the test.
      const context = await browser.newContext({ viewport, colorScheme, bypassCSP: true })
      const page = await context.newPage()
      const response = await page.goto(`${base}/status/acme`)
      expect(response?.status()).toBe(200)
      await expect.poll(() => page.locator('.chart canvas').count(), { timeout: 10_000 }).toBe(2)
      expect(await page.locator('.component h3').allTextContents()).toEqual(['Shop', 'API'])
      expect(await page.locator('.component').first().locator('.bar').count()).toBe(90)
      expect(await page.locator('.banner').textContent()).toBe('Degraded performance')
      expect(await page.locator('.chart').first().getAttribute('data-series')).toBe('2')
      const legend = await page.locator('.chart').first().locator('.u-legend').textContent()
      expect(legend).toContain('fra')
      expect(legend).toContain('nyc')
      const overflow = await page.evaluate(
        // biome-ignore lint/suspicious/noExplicitAny: the browser's globals, not typed in this Node project
        () => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth,
      )
      expect(overflow).toBeLessThanOrEqual(0)
      await page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true })
      expect(await axeViolations(page)).toEqual([])
      await context.close()
    }
  }, 60_000)

  it('keeps a page with its own theme, accent, logo and links accessible whatever the visitor prefers', async () => {
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const pages = (await app.inject({ method: 'GET', url: '/api/status-pages', headers })).json().data
    const acme = (await app.inject({ method: 'GET', url: `/api/status-pages/${pages[0].id}`, headers })).json().data
    for (const theme of ['dark', 'light'] as const) {
      const created = await app.inject({
        method: 'POST',
        url: '/api/status-pages',
        headers,
        payload: {
          name: `Acme ${theme}`,
          slug: `acme-${theme}`,
          isPublic: true,
          theme,
          accentColor: '#8250df',
          // Refused at once on this machine: the page must read well when its logo does not load.
          logoUrl: 'http://127.0.0.1:1/logo.png',
          links: [
            { label: 'Home', url: 'https://acme.example' },
            { label: 'Support', url: 'https://acme.example/support?topic=status&lang=en' },
          ],
          timezone: 'America/New_York',
        },
      })
      expect(created.statusCode).toBe(201)
      await app.inject({
        method: 'POST',
        url: `/api/status-pages/${created.json().data.id}/domains`,
        headers,
        payload: { domainId: acme.components[0].subjectId, displayName: 'Shop' },
      })
      const visitor = theme === 'dark' ? 'light' : 'dark'
      const context = await browser.newContext({
        viewport: { width: 360, height: 1400 },
        colorScheme: visitor,
        bypassCSP: true,
      })
      const page = await context.newPage()
      expect((await page.goto(`${base}/status/acme-${theme}`))?.status()).toBe(200)
      const background = await page.evaluate(
        // biome-ignore lint/suspicious/noExplicitAny: the browser's globals, not typed in this Node project
        () => (globalThis as any).getComputedStyle((globalThis as any).document.body).backgroundColor as string,
      )
      expect(background).toBe(theme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)')
      expect(await page.locator('nav .links a').allTextContents()).toEqual(['Home', 'Support'])
      expect(await page.locator('img.logo').getAttribute('alt')).toBe(`Acme ${theme} logo`)
      await page.screenshot({ path: new URL(`themed-${theme}.png`, ARTIFACTS).pathname, fullPage: true })
      expect(await axeViolations(page)).toEqual([])
      await context.close()
    }
  }, 60_000)

  it('works with JavaScript disabled: state, components, bars with tooltips and per-location text', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${base}/status/acme`)
    expect(await page.locator('.component h3').allTextContents()).toEqual(['Shop', 'API'])
    expect(await page.locator('.bar').count()).toBe(180)
    expect(await page.locator('.bar.ok').last().getAttribute('title')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}: 100% up/)
    expect(await page.locator('.component').nth(1).locator('.locations').textContent()).toContain('nyc: Down')
    expect(await page.locator('.chart canvas').count()).toBe(0)
    await page.screenshot({ path: new URL('no-javascript.png', ARTIFACTS).pathname, fullPage: true })
    await context.close()
  }, 30_000)

  it('shows a heartbeat by when it reported, without a chart, and draws a lone latency point on a 24-hour axis', async () => {
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const post = async (url: string, payload: Record<string, unknown>) =>
      (await app.inject({ method: 'POST', url, headers, payload })).json().data
    const heartbeat = await post('/api/heartbeats', { name: 'Nightly backup', every: 86_400 })
    const { results } = await applyPings(
      harness.ctx.sql,
      [
        {
          v: 1,
          id: newId(),
          monitorId: heartbeat.id,
          organizationId: ORG,
          type: 'success',
          receivedAt: new Date(Date.now() - 600_000).toISOString(),
          method: 'POST',
          sourceIp: '192.0.2.10',
        },
      ],
      async () => {},
    )
    // A domain checked once: one 10-minute point, which uPlot alone would spread over years.
    const fresh = await post('/api/domains', { url: 'https://new.example', name: 'New site' })
    const checked = [...results, resultFor(fresh.id, ORG, 'fra', 300, 'up', 80)]
    await storeResults(harness.ctx.timeseries, checked)
    await applyResultsToState(harness.ctx.sql, checked)
    await refreshSummariesOf(harness.ctx, checked)
    const statusPage = await post('/api/status-pages', { name: 'Jobs', slug: 'jobs', isPublic: true })
    await post(`/api/status-pages/${statusPage.id}/heartbeats`, { heartbeatId: heartbeat.id })
    await post(`/api/status-pages/${statusPage.id}/domains`, { domainId: fresh.id })

    const context = await browser.newContext({ viewport: { width: 1200, height: 1000 }, bypassCSP: true })
    const page = await context.newPage()
    expect((await page.goto(`${base}/status/jobs`))?.status()).toBe(200)
    await expect.poll(() => page.locator('.chart canvas').count(), { timeout: 10_000 }).toBe(1)
    const [job, site] = [page.locator('.component').nth(0), page.locator('.component').nth(1)]
    expect(await job.locator('h3').textContent()).toBe('Nightly backup')
    expect(await job.locator('.runs').textContent()).toMatch(
      /^Last reported: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d UTC · next expected: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d UTC$/,
    )
    expect(await job.locator('.chart, .locations').count()).toBe(0)
    expect(await job.locator('.bar.ok').last().getAttribute('title')).toMatch(/: 100% up \(0 of 1 run failed\)$/)
    expect(await site.locator('.chart').getAttribute('data-hours')).toBe('24')
    await page.screenshot({ path: new URL('heartbeat.png', ARTIFACTS).pathname, fullPage: true })
    expect(await axeViolations(page)).toEqual([])
    await context.close()
  }, 60_000)

  it('keeps internal ids and other organizations out of the HTML, and hides private and unknown pages', async () => {
    const html = await (await fetch(`${base}/status/acme`)).text()
    await writeFile(new URL('acme.html', ARTIFACTS), html)
    for (const secret of secrets) expect(html).not.toContain(secret)
    const hidden = await fetch(`${base}/status/hidden`)
    expect(hidden.status).toBe(404)
    expect(await hidden.text()).not.toContain('Hidden page')
    expect((await fetch(`${base}/status/no-such-page`)).status).toBe(404)
    const etag = (await fetch(`${base}/status/acme`)).headers.get('etag') as string
    expect((await fetch(`${base}/status/acme`, { headers: { 'if-none-match': etag } })).status).toBe(304)
  })
})
