import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { CHROMIUM, launchChromium, saveScreenshot } from './support/console-browser.ts'
import { axeViolations, inLightAndDark } from './support/status-page-browser.ts'

describe.skipIf(!CHROMIUM)('a status page in Arabic (right to left) and German in headless Chromium', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let browser: Browser
  let base: string

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_STATUS_PAGE_CACHE_SECONDS: '0' })
    app = await buildCollectorApp(harness.ctx)
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const post = async (url: string, payload: Record<string, unknown>) =>
      (await app.inject({ method: 'POST', url, headers, payload })).json().data
    const shop = (await post('/api/domains', { url: 'https://shop.example', name: 'shop' })).id
    const page = await post('/api/status-pages', { name: 'Acme', slug: 'acme', isPublic: true, locale: 'ar' })
    await post(`/api/status-pages/${page.id}/domains`, { domainId: shop, displayName: 'Shop' })
    const incident = await post('/api/incidents', {
      title: 'Checkout errors',
      severity: 'high',
      affectedDomains: [shop],
    })
    await post(`/api/incidents/${incident.id}/updates`, { status: 'identified', message: 'A bad deploy.' })
    await app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    browser = await launchChromium()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await harness?.close()
  })

  it('lays the Arabic page out right to left, accessibly in light and dark', async () => {
    await inLightAndDark(browser, async (page, colorScheme) => {
      expect((await page.goto(`${base}/status/acme`))?.status()).toBe(200)
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
      expect(await page.locator('#components').textContent()).toBe('المكونات')
      // Right to left: a component's name starts at the right edge, its state sits on the left.
      const name = await page.locator('.component h3').first().boundingBox()
      const state = await page.locator('.component .state').first().boundingBox()
      expect(name!.x).toBeGreaterThan(state!.x)
      const overflow = await page.evaluate(
        // biome-ignore lint/suspicious/noExplicitAny: the browser's globals, not typed in this Node project
        () => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth,
      )
      expect(overflow).toBeLessThanOrEqual(0)
      await saveScreenshot(page, `status-page/rtl-ar-${colorScheme}`)
      expect(await axeViolations(page)).toEqual([])

      await page.getByRole('link', { name: 'سجل الأعطال' }).first().click()
      await page.waitForURL(/\/history$/)
      expect(await page.locator('html').getAttribute('lang')).toBe('ar')
      expect(await axeViolations(page)).toEqual([])
    })
  }, 90_000)

  it('shows one view in German with ?lang=de, left to right and accessibly', async () => {
    await inLightAndDark(browser, async (page, colorScheme) => {
      expect((await page.goto(`${base}/status/acme?lang=de`))?.status()).toBe(200)
      expect(await page.locator('html').getAttribute('dir')).toBe('ltr')
      expect(await page.locator('#components').textContent()).toBe('Komponenten')
      expect(await page.locator('.incident .meta').first().textContent()).toMatch(/^Ursache gefunden · Hohe Schwere/)
      await saveScreenshot(page, `status-page/ltr-de-${colorScheme}`)
      expect(await axeViolations(page)).toEqual([])
    })
    expect((await fetch(`${base}/status/acme?lang=xx`)).status).toBe(400)
  }, 90_000)
})
