import { hostname } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
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
import { type FixtureServer, startFixtureServer } from './support/fixture-server.ts'
import { type GuardProcess, spawnGuard } from './support/spawn-guard.ts'

const shot = (page: Page, name: string) => saveScreenshot(page, `console/${name}`)

/**
 * The web console as a person uses it, against `guard start`: sign in through identity's pages,
 * add a domain pointing at a local fixture, watch it go up and then down live (incident and
 * notification without a reload), resolve the incident, enrol a device whose real agent reports,
 * publish a status page; and the BFF's guarantees (HttpOnly SameSite cookie, CSRF, server-side
 * sign-out).
 */
describe.skipIf(!CHROMIUM)('the web console end to end', () => {
  let guard: ConsoleGuard
  let fixture: FixtureServer
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let agent: GuardProcess | undefined
  let domainId: string

  beforeAll(async () => {
    fixture = await startFixtureServer()
    guard = await startGuardForConsole({ GUARD_DEVICE_OFFLINE_MIN_SECONDS: '30', GUARD_STATUS_PAGE_CACHE_SECONDS: '0' })
    browser = await launchChromium()
  }, 150_000)

  afterAll(async () => {
    await agent?.stop('SIGKILL')
    await browser?.close()
    await guard?.stop()
    await fixture?.close()
  })

  it('signs in through identity and lands on the overview with an HttpOnly, SameSite session cookie', async () => {
    ;({ context, page } = await signInToConsole(browser, guard))
    await page.getByRole('heading', { name: 'Overview' }).waitFor()
    const session = (await context.cookies()).find((cookie) => cookie.name === 'guard_console')
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' })
    // No token reaches the browser: the session endpoint names the user, not their tokens.
    const described = await page.evaluate(async () => (await fetch('/auth/session')).text())
    expect(described).toContain(guard.admin.email)
    expect(described).not.toMatch(/eyJ[\w-]+\.eyJ/)
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor({ timeout: 10_000 })
    await shot(page, 'overview-empty')
    expect(await seriousViolations(page)).toEqual([])
  }, 120_000)

  it('adds a domain with check options through the form, then shows it up with a latency chart', async () => {
    await page.getByRole('link', { name: 'Domains' }).first().click()
    await page.getByText('No domains yet').waitFor()
    await page.getByRole('link', { name: 'Add a domain' }).first().click()
    await page.getByLabel('URL').fill(fixture.url)
    await page.getByLabel('Name', { exact: true }).fill('Fixture site')
    await page.getByLabel('Check interval (seconds)').fill('5')
    await page.getByLabel('Timeout (seconds)').fill('3')
    await page.getByLabel('Failures before down').fill('1')
    await page.getByLabel('Expected status codes').fill('200-299, 304')
    // Test runs the check from a probe before anything is saved, and says why it failed.
    await page.getByLabel('Keyword', { exact: true }).fill('missing-word')
    await page.getByRole('button', { name: 'Test', exact: true }).click()
    const tested = page.locator('.test-result')
    await tested.waitFor({ timeout: 15_000 })
    expect(await tested.textContent()).toMatch(/Down.*keyword "missing-word" not found in the body/)
    expect(await tested.locator('.legend').textContent()).toMatch(/Connect.*First byte/)
    expect(new URL(page.url()).pathname).toBe('/domains/new')
    await page.getByLabel('Keyword', { exact: true }).fill('ok')
    // A bad option is refused with the API's message and the form keeps what was typed.
    await page.getByLabel('JSONPath', { exact: true }).fill('not a path')
    await page.getByRole('button', { name: 'Add domain' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('JSONPath')
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Fixture site')
    await page.getByLabel('JSONPath', { exact: true }).fill('')
    await shot(page, 'domain-form')
    expect(await seriousViolations(page)).toEqual([])
    // While the create runs its button is disabled, and Enter in a field cannot send it twice.
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let creates = 0
    await page.route('**/api/domains', async (route) => {
      if (route.request().method() === 'POST') {
        creates += 1
        await held
      }
      await route.continue()
    })
    await page.getByRole('button', { name: 'Add domain' }).click()
    const saving = page.getByRole('button', { name: 'Saving…' })
    expect(await saving.isDisabled()).toBe(true)
    await page.getByLabel('Name', { exact: true }).press('Enter')
    release()
    await page.waitForURL((url) => /^\/domains\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith('/new'))
    await page.unroute('**/api/domains')
    expect(creates).toBe(1)
    domainId = page.url().split('/').pop()!

    // Known defect, open in issue 33: now and then the domain screen opened right after its create
    // stays empty (no header, no error), though every API answer is right; one reload shows it.
    await page
      .locator('.page-head')
      .waitFor({ timeout: 15_000 })
      .catch(() => page.reload())
    await page.locator('.page-head .state-up').waitFor({ timeout: 40_000 })
    await page.locator('.chart canvas').first().waitFor({ timeout: 30_000 })
    expect(await page.locator('.u-legend .u-series').count()).toBeGreaterThanOrEqual(2)
    await page.getByRole('heading', { name: 'Latest checks' }).waitFor()
    // The probe's timing phases of each check, averaged above the history.
    await page.locator('.legend', { hasText: 'First byte' }).waitFor()
    await shot(page, 'domain-detail-up')
    expect(await seriousViolations(page)).toEqual([])

    // 90 days draws from the hourly rollup, which outlives the 35 days of raw results.
    const latency = page.waitForResponse((response) => response.url().includes('/monitoring/latency?range=90d'))
    await page.getByRole('button', { name: '90d', exact: true }).click()
    expect((await latency).status()).toBe(200)
    await page.locator('.chart canvas').first().waitFor()
    expect(await page.locator('.u-legend .u-series').count()).toBeGreaterThanOrEqual(2)
  }, 120_000)

  it('turns the domain down live when the fixture fails: an incident and a notification appear without a reload', async () => {
    // Everything below must arrive over the event stream or the screen's own refresh, never a reload.
    await page.evaluate(() => {
      ;(globalThis as unknown as { marker: boolean }).marker = true
    })
    fixture.setStatus(500)
    await page.locator('.page-head .state-down').waitFor({ timeout: 45_000 })
    await page.locator('.activity a[href^="/incidents/"]').first().waitFor({ timeout: 20_000 })
    await page.locator('.bell-count:not([data-unread="0"])').waitFor({ timeout: 20_000 })
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: boolean }).marker)).toBe(true)
    await shot(page, 'domain-detail-down')

    await page.getByRole('link', { name: 'Overview' }).click()
    await page.locator('ul[aria-label="Monitors, down first"] li').first().locator('.state-down').waitFor()
    await expect.poll(() => page.locator('.stat-value').first().textContent()).toBe('0/1 up')
    await shot(page, 'overview-down')
    expect(await seriousViolations(page)).toEqual([])
    await page.getByRole('link', { name: 'Domains' }).first().click()
    await page.locator('tbody .state-down').waitFor()
    await shot(page, 'domains-list')
    expect(await seriousViolations(page)).toEqual([])
  }, 120_000)

  it('resolves the incident from its page', async () => {
    await page.goto(`${guard.collectorUrl}/domains/${domainId}`)
    await page.locator('.activity a[href^="/incidents/"]').first().click()
    await page.getByRole('button', { name: 'Resolve' }).click()
    await page.getByText('Resolved', { exact: false }).first().waitFor()
    const incidents = await page.evaluate(async () => (await fetch('/api/incidents?status=resolved')).json())
    expect((incidents as { data: unknown[] }).data.length).toBeGreaterThanOrEqual(1)
  }, 60_000)

  it('checks a new service at once, and records its Check now in the history and the header', async () => {
    await page.goto(`${guard.collectorUrl}/services/new`)
    await page.getByLabel('Host').fill('127.0.0.1')
    await page.getByLabel('Port').fill(new URL(fixture.url).port)
    await page.getByLabel('Name', { exact: true }).fill('Fixture port')
    await page.getByLabel('Check interval (seconds)').fill('300')
    await page.getByRole('button', { name: 'Add service' }).click()
    await page.waitForURL((url) => /^\/services\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith('/new'))
    const path = `/api/services/${page.url().split('/').pop()}`
    const read = (suffix = '') =>
      page.evaluate(async (url) => ((await (await fetch(url)).json()) as { data: unknown }).data, `${path}${suffix}`)
    // Every 300 s, yet checked within seconds of being saved rather than somewhere in the next five minutes.
    const saved = Date.now()
    await expect
      .poll(async () => (await read()) as { lastCheck: string | null }, { timeout: 5000, interval: 250 })
      .toMatchObject({ lastCheck: expect.any(String) })
    expect(Date.now() - saved).toBeLessThan(5000)

    const before = ((await read('/history')) as unknown[]).length
    await page.getByRole('button', { name: 'Check now' }).click()
    await page.getByRole('status').filter({ hasText: 'Checked now' }).waitFor()
    await page.getByRole('button', { name: 'Check now' }).waitFor({ timeout: 10_000 })
    // Stored through the bus and the ingest like a scheduled check: there within seconds, not at once.
    await expect
      .poll(async () => ((await read('/history')) as unknown[]).length, { timeout: 10_000, interval: 250 })
      .toBeGreaterThan(before)
    await page.locator('.page-head .state-up').waitFor({ timeout: 10_000 })
  }, 60_000)

  it('enrols a device and shows the metrics its real agent reports', async () => {
    await page.getByRole('link', { name: 'Devices' }).first().click()
    await page.getByRole('button', { name: 'Enrol a device' }).click()
    await page.getByLabel('Name', { exact: true }).fill('console-box')
    await page.getByRole('button', { name: 'Enrol', exact: true }).click()
    const block = (name: string) => page.getByRole('region', { name, exact: true }).locator('pre')
    const token = ((await block('Agent token').textContent()) ?? '').trim()
    const command = (await block('Run command').textContent()) ?? ''
    const deviceId = command.match(/GUARD_DEVICE_ID=(\S+)/)![1]!
    agent = spawnGuard(['agent'], {
      GUARD_COLLECTOR_URL: guard.collectorUrl,
      GUARD_DEVICE_ID: deviceId,
      GUARD_DEVICE_TOKEN: token,
      GUARD_AGENT_INTERVAL_SECONDS: '2',
      GUARD_AGENT_SPOOL_DIR: join(guard.dataDir, 'agent-spool'),
    })
    await page.getByRole('button', { name: 'Done' }).click()
    await page.goto(`${guard.collectorUrl}/devices/${deviceId}`)
    // The agent's own inventory names this machine, and its metrics draw the charts.
    await page.getByText(hostname()).first().waitFor({ timeout: 45_000 })
    await page.locator('.chart canvas').first().waitFor({ timeout: 20_000 })
    await shot(page, 'device-detail')
  }, 90_000)

  it('creates a public status page and opens it', async () => {
    await page.getByRole('link', { name: 'Status pages' }).first().click()
    await page.getByRole('button', { name: 'New status page' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Console status')
    await page.getByLabel('Slug').fill('console-status')
    await page.getByLabel(/Public/).check()
    await page.getByRole('button', { name: 'Create' }).click()
    await page.waitForURL((url) => /^\/status-pages\/[^/]+$/.test(url.pathname))
    const pageId = page.url().split('/').pop()!
    const added = await page.evaluate(
      async ({ pageId, domainId }) => {
        const session = (await (await fetch('/auth/session')).json()) as { csrfToken: string }
        const response = await fetch(`/api/status-pages/${pageId}/domains`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
          body: JSON.stringify({ domainId, displayName: 'Fixture site' }),
        })
        return response.status
      },
      { pageId, domainId },
    )
    expect(added).toBe(201)
    const publicPage = await context.newPage()
    await publicPage.goto(`${guard.collectorUrl}/status/console-status`)
    await publicPage
      .getByText('Fixture site')
      .first()
      .waitFor({ timeout: 15_000 })
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)}\n${await publicPage.content()}`)
      })
    await shot(publicPage, 'public-status-page')
    await publicPage.close()
  }, 60_000)

  it('is usable at 360 px and in the dark', async () => {
    const small = await browser.newContext({ viewport: { width: 360, height: 780 }, colorScheme: 'dark' })
    await small.addCookies(await context.cookies())
    const phone = await small.newPage()
    await phone.goto(`${guard.collectorUrl}/domains/${domainId}`)
    await phone.locator('.chart canvas').first().waitFor({ timeout: 20_000 })
    const overflow = await phone.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')
    expect(overflow).toBeLessThanOrEqual(0)
    await shot(phone, 'domain-detail-360-dark')
    expect(await seriousViolations(phone)).toEqual([])
    await small.close()
  }, 60_000)

  it('refuses a state-changing call without the CSRF token, and a cross-site one', async () => {
    const cookie = (await context.cookies()).find((item) => item.name === 'guard_console')!
    const headers = { cookie: `guard_console=${cookie.value}`, 'content-type': 'application/json' }
    const body = JSON.stringify({ url: fixture.url, name: 'forged' })
    const withoutToken = await fetch(`${guard.collectorUrl}/api/domains`, { method: 'POST', headers, body })
    expect(withoutToken.status).toBe(403)
    const csrf = (
      await page.evaluate(async () => (await (await fetch('/auth/session')).json()) as { csrfToken: string })
    ).csrfToken
    const crossSite = await fetch(`${guard.collectorUrl}/api/domains`, {
      method: 'POST',
      headers: { ...headers, 'x-csrf-token': csrf, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      body,
    })
    expect(crossSite.status).toBe(403)
    // A page of another origin on the same host (another port is the same site, so the browser sends
    // the cookie): its forged post carries no token and a foreign Origin.
    const other = await context.newPage()
    await other.goto(fixture.url)
    await other.evaluate(
      async ([target, payload]) => {
        await fetch(target!, { method: 'POST', credentials: 'include', mode: 'no-cors', body: payload })
      },
      [`${guard.collectorUrl}/api/domains`, body],
    )
    await other.close()
    const reads = await fetch(`${guard.collectorUrl}/api/domains`, { headers })
    expect(reads.status).toBe(200)
    expect(JSON.stringify(await reads.json())).not.toContain('forged')
  }, 30_000)

  it('signs out of the console and identity, and the old cookie no longer works', async () => {
    const cookie = (await context.cookies()).find((item) => item.name === 'guard_console')!
    await page.goto(guard.collectorUrl)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 20_000 })
    await shot(page, 'signed-out')
    expect(await seriousViolations(page)).toEqual([])
    const replay = await fetch(`${guard.collectorUrl}/api/domains`, {
      headers: { cookie: `guard_console=${cookie.value}` },
    })
    expect(replay.status).toBe(401)
    // Identity's session ended too: signing in again asks for the password.
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByLabel('Password').waitFor()
  }, 60_000)
})
