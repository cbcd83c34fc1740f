import { mkdir } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { DEFAULT_ORGANIZATION } from '@guard/shared'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { incidentKey } from '../collector/src/services/status-pages/public-incidents.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { CHROMIUM, launchChromium } from './support/console-browser.ts'
import { axeViolations, inLightAndDark } from './support/status-page-browser.ts'

const ARTIFACTS = new URL('./artifacts/status-page-history/', import.meta.url)
const ORG = DEFAULT_ORGANIZATION.id

describe.skipIf(!CHROMIUM)('the incident history and incident pages in headless Chromium', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let browser: Browser
  let base: string
  const month = new Date().toISOString().slice(0, 7)

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true })
    harness = await collectorForTest({ GUARD_STATUS_PAGE_CACHE_SECONDS: '0' })
    app = await buildCollectorApp(harness.ctx)
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const post = async (url: string, payload: Record<string, unknown>) =>
      (await app.inject({ method: 'POST', url, headers, payload })).json().data
    const shop = (await post('/api/domains', { url: 'https://shop.example', name: 'shop' })).id
    const page = await post('/api/status-pages', { name: 'Acme status', slug: 'acme', isPublic: true })
    await post(`/api/status-pages/${page.id}/domains`, { domainId: shop, displayName: 'Shop' })
    const incident = await post('/api/incidents', {
      title: 'Checkout errors',
      severity: 'high',
      affectedDomains: [shop],
    })
    await post(`/api/incidents/${incident.id}/updates`, {
      status: 'identified',
      message: 'A bad deploy; rolling back.',
    })
    await post(`/api/incidents/${incident.id}/updates`, { status: 'resolved', message: 'Rolled back, all good.' })
    await harness.ctx.sql.query(
      `INSERT INTO monitoring.incidents (id, organization_id, title, status, severity, cause, monitor_id, monitor_kind,
         affected_domains, detected_at, resolved_at)
       VALUES ('older-one', $1, 'shop is down', 'resolved', 'critical', 'down', $2, 'domain', ARRAY[$2],
         now() - interval '40 days', now() - interval '40 days' + interval '5 minutes')`,
      [ORG, shop],
    )
    await app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await harness?.close()
  })

  it('pages the history by month and opens an incident at its own address, accessibly in light and dark', async () => {
    await inLightAndDark(browser, async (page, colorScheme) => {
      expect((await page.goto(`${base}/status/acme/history`))?.status()).toBe(200)
      expect(await page.locator('#month').textContent()).toBe(
        new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date()),
      )
      expect(await page.locator('.incident h3').allTextContents()).toEqual(['Checkout errors'])
      await page.screenshot({ path: new URL(`history-${colorScheme}.png`, ARTIFACTS).pathname, fullPage: true })
      expect(await axeViolations(page)).toEqual([])

      await page.getByRole('link', { name: /^Older:/ }).click()
      await page.waitForURL(/month=/)
      expect(page.url()).not.toContain(`month=${month}`)
      expect(await page.locator('.incident h3').allTextContents()).toEqual(['Outage: Shop'])
      expect(await axeViolations(page)).toEqual([])

      await page.goto(`${base}/status/acme/history`)
      await page.getByRole('link', { name: 'Checkout errors' }).click()
      await page.waitForURL(/\/incidents\//)
      expect(page.url()).toMatch(/\/status\/acme\/incidents\/[A-Za-z0-9_-]{22}$/)
      expect(await page.locator('.updates p').allTextContents()).toEqual([
        'Rolled back, all good.',
        'A bad deploy; rolling back.',
        'Investigating.',
      ])
      await page.screenshot({ path: new URL(`incident-${colorScheme}.png`, ARTIFACTS).pathname, fullPage: true })
      expect(await axeViolations(page)).toEqual([])
    })
    expect((await fetch(`${base}/status/acme/incidents/${incidentKey('older-one')}`)).status).toBe(200)
  }, 90_000)
})
