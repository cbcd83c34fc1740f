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

describe.skipIf(!CHROMIUM)('console: heartbeat monitors', () => {
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

  it('creates a cron heartbeat with the next five times shown, gives its snippets, and shows it up once pinged', async () => {
    await page.goto(`${guard.collectorUrl}/heartbeats`)
    await page.getByRole('button', { name: 'Create a heartbeat' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create a heartbeat' })
    await dialog.getByLabel('Name').fill('Nightly backup')
    await dialog.getByLabel('Cron expression').fill('30 2 * * *')
    await dialog.getByLabel('Time zone').fill('Europe/Amsterdam')
    await expect.poll(() => dialog.locator('ol.next-times li').count()).toBe(5)
    await dialog.getByLabel('Cron expression').fill('61 * * * *')
    await expect.poll(() => dialog.locator('ol.next-times li').count()).toBe(0)
    await dialog.getByLabel('Cron expression').fill('30 2 * * *')
    expect(await seriousViolations(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Create heartbeat' }).click()

    const created = page.getByRole('dialog', { name: 'Ping Nightly backup' })
    const pingUrl = (await created.locator('.copy-block pre').first().textContent()) ?? ''
    expect(pingUrl).toMatch(/\/ping\/[A-Za-z0-9_-]{32}$/)
    const snippets = (await created.locator('.copy-block pre').allTextContents()).join('\n')
    for (const part of ['crontab', 'ExecStopPost', 'kind: CronJob', 'guard heartbeat']) {
      expect(snippets + (await created.textContent())).toContain(part)
    }
    await saveScreenshot(page, 'console/heartbeats-created')
    await created.getByRole('button', { name: 'Done' }).click()

    const row = page.getByRole('row', { name: /Nightly backup/ })
    await row.waitFor()
    expect(await row.textContent()).toContain('Unknown')
    expect((await fetch(pingUrl, { method: 'POST', body: 'dumped 3 tables' })).status).toBe(200)
    await expect
      .poll(
        async () => {
          await page.reload()
          return page.getByRole('row', { name: /Nightly backup/ }).textContent()
        },
        { timeout: 15_000 },
      )
      .toContain('Up')
    await saveScreenshot(page, 'console/heartbeats-list')
    await page.getByRole('button', { name: 'Run log of Nightly backup' }).click()
    const log = page.getByRole('dialog', { name: 'Run log of Nightly backup' })
    await log.getByRole('row', { name: /Success/ }).waitFor()
    expect(await log.textContent()).toContain('dumped 3 tables')
    expect(await seriousViolations(page)).toEqual([])
    await saveScreenshot(page, 'console/heartbeats-run-log')
  }, 90_000)
})
