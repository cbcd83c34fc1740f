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

describe.skipIf(!CHROMIUM)('console: status page subscribers, in headless Chromium', () => {
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

  it('imports addresses, lists them, offers the CSV and removes one', async () => {
    const statusPage = await guard.rest<{ id: string }>('POST', '/api/status-pages', {
      name: 'Customer status',
      slug: 'customer-status',
      isPublic: true,
    })
    await page.goto(`${guard.collectorUrl}/status-pages/${statusPage.id}`)
    await page.getByRole('heading', { name: 'Subscribers', level: 2 }).waitFor()
    await page.getByLabel('Import e-mail addresses').fill('first@example.org, second@example.org')
    await page.getByRole('button', { name: 'Import' }).click()
    await page.getByRole('status').filter({ hasText: '2 imported' }).waitFor()
    await page.getByRole('row', { name: /second@example\.org/ }).waitFor()
    expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      `/api/status-pages/${statusPage.id}/subscribers?format=csv`,
    )
    await page.getByRole('button', { name: 'Remove second@example.org' }).click()
    await expect.poll(() => page.getByRole('row', { name: /second@example\.org/ }).count()).toBe(0)
    expect(
      await guard.rest<Array<{ target: string }>>('GET', `/api/status-pages/${statusPage.id}/subscribers`),
    ).toEqual([expect.objectContaining({ target: 'first@example.org', confirmed: true })])
    await saveScreenshot(page, 'console/status-page-subscribers')
    expect(await seriousViolations(page)).toEqual([])
  }, 90_000)
})
