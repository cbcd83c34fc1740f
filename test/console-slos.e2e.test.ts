import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CHROMIUM,
  type ConsoleGuard,
  launchChromium,
  saveScreenshot,
  seriousViolations,
  signInToConsole,
  startGuardForConsole,
} from './support/console-browser.ts'

describe.skipIf(!CHROMIUM)('console: SLOs and their error budget, in headless Chromium', () => {
  let guard: ConsoleGuard
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    guard = await startGuardForConsole()
    browser = await launchChromium()
    page = (await signInToConsole(browser, guard)).page
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await guard?.stop()
  })

  it('lists an SLO and shows its budget panel with the burn-down chart', async () => {
    const domain = await guard.rest<{ id: string }>('POST', '/api/domains', {
      url: 'http://127.0.0.1:9/',
      name: 'Checkout',
    })
    await guard.rest('POST', '/api/slos', {
      name: 'Checkout availability',
      subject: { kind: 'monitor', id: domain.id },
      objective: 99.9,
    })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'SLOs' }).click()
    await page.getByRole('heading', { name: 'SLOs', level: 1 }).waitFor()
    await page.getByRole('row', { name: /Checkout availability/ }).waitFor()
    await page.getByRole('heading', { name: 'Checkout availability', level: 2 }).waitFor()
    await page.getByRole('img', { name: /Budget burn-down/ }).waitFor()
    expect(await page.locator('.slo-panel').textContent()).toContain('objective 99.9 %')
    expect(await page.getByRole('link', { name: 'Monthly report' }).getAttribute('href')).toMatch(
      /^\/api\/reports\/slos\?month=\d{4}-\d{2}&format=html$/,
    )
    await saveScreenshot(page, 'console/slos')
    expect(await seriousViolations(page)).toEqual([])
  }, 90_000)
})
