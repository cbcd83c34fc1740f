import { mkdir } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { CHROMIUM, launchChromium } from './support/console-browser.ts'
import { axeViolations, inLightAndDark } from './support/status-page-browser.ts'

const ARTIFACTS = new URL('./artifacts/status-page/', import.meta.url)

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
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await harness?.close()
  })

  it('asks for the password accessibly, says when it is wrong, and opens the page with the right one', async () => {
    await inLightAndDark(browser, async (page, colorScheme) => {
      expect((await page.goto(`${base}/status/vault`))?.status()).toBe(401)
      expect(await page.locator('h1').textContent()).toBe('Private status page')
      expect(await axeViolations(page)).toEqual([])
      await page.getByLabel('Password').fill('wrong guess')
      await page.getByRole('button', { name: 'View the page' }).click()
      await expect.poll(() => page.locator('[role="alert"]').textContent()).toBe('That password is not right.')
      expect(await axeViolations(page)).toEqual([])
      await page.screenshot({ path: new URL(`password-${colorScheme}.png`, ARTIFACTS).pathname, fullPage: true })
      await page.getByLabel('Password').fill('correct horse')
      await page.getByRole('button', { name: 'View the page' }).click()
      await expect.poll(() => page.locator('h1').textContent()).toBe('Vault status')
      expect(new URL(page.url()).pathname).toBe('/status/vault')
      const [cookie] = await page.context().cookies()
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: false })
    })
  }, 60_000)
})
