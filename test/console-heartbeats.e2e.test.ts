import { readFile } from 'node:fs/promises'
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

  const rest = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${guard.collectorUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${guard.apiKey}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    expect(response.status, `${method} ${path}`).toBeLessThan(300)
    return ((await response.json()) as { data: T }).data
  }

  it('shows the daily history, run time and run log on the heartbeat’s own page', async () => {
    await page.goto(`${guard.collectorUrl}/heartbeats`)
    await page.getByRole('link', { name: 'Nightly backup' }).click()
    await page.getByRole('heading', { name: 'Nightly backup' }).waitFor()
    const days = page.getByRole('img', { name: /Daily history of Nightly backup over 30 days/ })
    await days.waitFor()
    expect(await days.locator('.beat').count()).toBe(30)
    // Today's run arrives through the results pipeline; the page follows it.
    const today = days.locator(`.beat[data-date="${new Date().toISOString().slice(0, 10)}"]`)
    await expect.poll(() => today.getAttribute('title'), { timeout: 15_000 }).toMatch(/1 run, 0 failures/)
    expect(await today.getAttribute('class')).toContain('beat-up')
    expect(await days.getAttribute('aria-label')).toContain('1 up, 0 partial, 0 down, 29 without data')
    await page.getByRole('button', { name: '90 days' }).click()
    const quarter = page.getByRole('img', { name: /Daily history of Nightly backup over 90 days/ })
    await expect.poll(() => quarter.locator('.beat').count(), { timeout: 10_000 }).toBe(90)
    // The days shown, as CSV, through the browser's own session.
    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download CSV' }).click()
    const file = await download
    expect(file.suggestedFilename()).toBe('nightly-backup-daily-90d.csv')
    const [header, ...lines] = (await readFile(await file.path(), 'utf8')).trimEnd().split('\n')
    expect(header).toBe('heartbeat,date,runs,failures,missed,uptime,avgRunSeconds,p95RunSeconds')
    expect(lines).toHaveLength(90)
    expect(lines.at(-1)).toMatch(new RegExp(`^Nightly backup,${new Date().toISOString().slice(0, 10)},1,0,0,100,`))
    expect(await page.getByRole('table', { name: 'Run log of Nightly backup' }).textContent()).toContain(
      'dumped 3 tables',
    )
    expect(await seriousViolations(page)).toEqual([])
    await saveScreenshot(page, 'console/heartbeat-detail')
  }, 60_000)

  it('counts a failed heartbeat on the overview and lists it under Down now, with why', async () => {
    const worker = await rest<{ id: string; pingUrl: string }>('POST', '/api/heartbeats', {
      name: 'Queue worker',
      every: 3600,
    })
    expect((await fetch(`${worker.pingUrl}/fail`, { method: 'POST' })).status).toBe(200)
    await expect
      .poll(async () => (await rest<{ status: string }>('GET', `/api/heartbeats/${worker.id}`)).status, {
        timeout: 15_000,
      })
      .toBe('down')
    await page.goto(`${guard.collectorUrl}/`)
    const down = page.getByRole('list', { name: 'Down now' })
    const link = down.getByRole('link', { name: 'Queue worker' })
    await link.waitFor({ timeout: 15_000 })
    expect(await link.getAttribute('href')).toBe(`/heartbeats/${worker.id}`)
    expect(await down.textContent()).toContain('The job reported a failure')
    const counts = page.getByRole('list', { name: 'Monitors by state' })
    await expect
      .poll(() => counts.locator('.state-count-down .state-count-value').textContent(), { timeout: 10_000 })
      .toBe('1')
    expect(await counts.locator('.state-count-up .state-count-value').textContent()).toBe('1')
    await expect
      .poll(() => page.locator('a.card.stat', { hasText: 'Heartbeats' }).textContent(), { timeout: 10_000 })
      .toMatch(/1\/2 up\s*1 down/)
    // Its runs come with the other monitors' recent checks: a run-time line, not the empty one.
    await page
      .getByRole('img', { name: /^Run time of Nightly backup over its last [1-9]\d* runs$/ })
      .waitFor({ timeout: 10_000 })
    await saveScreenshot(page, 'console/overview-heartbeats')
  }, 60_000)

  it('puts a heartbeat on a status page from the editor', async () => {
    const statusPage = await rest<{ id: string; slug: string }>('POST', '/api/status-pages', {
      name: 'Jobs',
      slug: 'jobs',
      isPublic: true,
    })
    await page.goto(`${guard.collectorUrl}/status-pages/${statusPage.id}`)
    const monitor = page.getByLabel('Monitor', { exact: true })
    await monitor.locator('optgroup[label="Heartbeats"] option', { hasText: 'Nightly backup' }).waitFor({
      state: 'attached',
    })
    await monitor.selectOption({ label: 'Nightly backup' })
    await page.getByRole('button', { name: 'Add component' }).click()
    const component = page.locator('ol.components li', { hasText: 'Nightly backup' })
    await component.waitFor()
    expect(await component.textContent()).toContain('Heartbeat')
    const stored = await rest<{ components: Array<{ kind: string; displayName: string }> }>(
      'GET',
      `/api/status-pages/${statusPage.id}`,
    )
    expect(stored.components).toMatchObject([{ kind: 'heartbeat', displayName: 'Nightly backup' }])
    const visitor = await (await fetch(`${guard.collectorUrl}/status/${statusPage.slug}`)).text()
    expect(visitor).toContain('Nightly backup')
    // A job's component says when it reported, and draws no latency chart.
    expect(visitor).toContain('<p class="runs">Last reported: <time')
    expect(visitor).not.toContain('class="chart"')
    expect(await seriousViolations(page)).toEqual([])
    await saveScreenshot(page, 'console/status-page-heartbeat')
  }, 60_000)
})
