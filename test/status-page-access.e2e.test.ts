import { mkdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { serviceAvailable } from '@guard/shared/testing'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { collectorForTest } from '../collector/src/test-support.ts'

const CHROMIUM = serviceAvailable('chromium', ['/usr/bin/chromium', '/usr/bin/chromium-browser'])
const ARTIFACTS = new URL('./artifacts/status-page/', import.meta.url)
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

describe.skipIf(!CHROMIUM)('the password page of a private status page in headless Chromium', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let browser: Browser
  let base: string

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true })
    harness = await collectorForTest({ GUARD_STATUS_PAGE_CACHE_SECONDS: '0' })
    app = await buildCollectorApp(harness.ctx)
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const page = await app.inject({
      method: 'POST',
      url: '/api/status-pages',
      headers,
      payload: { name: 'Vault status', slug: 'vault', isPublic: true },
    })
    await app.inject({
      method: 'PUT',
      url: `/api/status-pages/${page.json().data.id}/access`,
      headers,
      payload: { mode: 'password', password: 'correct horse' },
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await harness?.close()
  })

  const serious = async (page: Page) => {
    await page.addScriptTag({ path: AXE })
    const result = await page.evaluate(async () => {
      // biome-ignore lint/suspicious/noExplicitAny: axe and document are browser globals the Node types lack
      const browserGlobals = globalThis as any
      return (await browserGlobals.axe.run(browserGlobals.document)) as {
        violations: Array<{ id: string; impact: string }>
      }
    })
    return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
  }

  it('asks for the password accessibly, says when it is wrong, and opens the page with the right one', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      // The gate's CSP allows no script at all; axe is injected by the test.
      const context = await browser.newContext({ viewport: { width: 360, height: 800 }, colorScheme, bypassCSP: true })
      const page = await context.newPage()
      expect((await page.goto(`${base}/status/vault`))?.status()).toBe(401)
      expect(await page.locator('h1').textContent()).toBe('Private status page')
      expect(await serious(page)).toEqual([])
      await page.getByLabel('Password').fill('wrong guess')
      await page.getByRole('button', { name: 'View the page' }).click()
      await expect.poll(() => page.locator('[role="alert"]').textContent()).toBe('That password is not right.')
      expect(await serious(page)).toEqual([])
      await page.screenshot({ path: new URL(`password-${colorScheme}.png`, ARTIFACTS).pathname, fullPage: true })
      await page.getByLabel('Password').fill('correct horse')
      await page.getByRole('button', { name: 'View the page' }).click()
      await expect.poll(() => page.locator('h1').textContent()).toBe('Vault status')
      expect(new URL(page.url()).pathname).toBe('/status/vault')
      const [cookie] = await context.cookies()
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: false })
      await context.close()
    }
  }, 60_000)
})
