import { AxeBuilder } from '@axe-core/playwright'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from './support/collector-client.ts'
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

const shot = (page: Page, name: string) => saveScreenshot(page, `console/heartbeat-${name}`)

interface RecentChecks {
  monitorId: string
  checks: Array<{ status: string; location: string }>
}

/** The background colour a bar is painted with, as the browser computed it (this file has no DOM types). */
const colourOf = (bar: Locator) =>
  bar.evaluate((element) => {
    const view = globalThis as unknown as { getComputedStyle(node: typeof element): { backgroundColor: string } }
    return view.getComputedStyle(element).backgroundColor
  })

describe.skipIf(!CHROMIUM)('heartbeat bars and the overview, from real checks of a site that goes down', () => {
  let guard: ConsoleGuard
  let fixture: FixtureServer
  let browser: Browser
  let page: Page
  const ids = { domain: '', service: '' }

  const rest = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(new URL(path, guard.collectorUrl), {
      method,
      headers: {
        authorization: `Bearer ${guard.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const json = (await response.json()) as { data: T }
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json.data
  }
  const recentChecks = async (id: string) =>
    (await rest<RecentChecks[]>('GET', `/api/monitors/recent-checks?ids=${id}&limit=90`))[0]?.checks ?? []

  beforeAll(async () => {
    fixture = await startFixtureServer()
    guard = await startGuardForConsole()
    const port = new URL(fixture.url).port
    ids.domain = (
      await rest<{ id: string }>('POST', '/api/domains', {
        url: fixture.url,
        name: 'Heartbeat site',
        checkInterval: 5,
        timeout: 3,
        failureThreshold: 1,
      })
    ).id
    ids.service = (
      await rest<{ id: string }>('POST', '/api/services', {
        name: 'Heartbeat port',
        protocol: 'tcp',
        protocolConfig: { host: '127.0.0.1', port: Number(port) },
        checkInterval: 5,
        timeout: 3,
      })
    ).id
    // Up first (the first check runs at once, the next one 5 s later), then the site fails.
    await eventually(
      async () =>
        (await recentChecks(ids.domain)).filter((check) => check.status === 'up').length >= 2 ? true : undefined,
      'two up checks of the site',
      30_000,
    )
    fixture.setStatus(500)
    await eventually(
      async () =>
        (await rest<{ status: string }>('GET', `/api/domains/${ids.domain}`)).status === 'down' ? true : undefined,
      'the site to be down',
      30_000,
    )
    browser = await launchChromium()
    page = (await signInToConsole(browser, guard)).page
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await guard?.stop()
    await fixture?.close()
  })

  it('the overview counts monitors per state and lists the down site, linked, with why', async () => {
    const down = page.getByRole('list', { name: 'Down now' })
    const link = down.getByRole('link', { name: 'Heartbeat site' })
    await link.waitFor({ timeout: 15_000 })
    expect(await link.getAttribute('href')).toBe(`/domains/${ids.domain}`)
    expect(await down.textContent()).toMatch(/500/)
    const counts = page.getByRole('list', { name: 'Monitors by state' })
    await expect.poll(() => counts.locator('.state-count-down .state-count-value').textContent()).toBe('1')
    expect(await counts.locator('.state-count-up .state-count-value').textContent()).toBe('1')
    // Each listed monitor has its latency sparkline: the port answers, so its line is drawn.
    const port = page.getByRole('list', { name: 'Monitors, down first' }).locator('li', { hasText: 'Heartbeat port' })
    await port.locator('svg.sparkline path[d^="M"]').waitFor({ timeout: 15_000 })
    expect(await seriousViolations(page)).toEqual([])
    await shot(page, 'overview')
  }, 60_000)

  it('the Domains list draws one coloured bar per check, newest on the right, with a text alternative', async () => {
    await page.goto(`${guard.collectorUrl}/domains`)
    const row = page.getByRole('row', { name: /Heartbeat site/ })
    const bar = row.getByRole('img', { name: /^Recent checks of Heartbeat site: last \d+ checks/ })
    await bar.waitFor({ timeout: 15_000 })
    const label = (await bar.getAttribute('aria-label')) ?? ''
    expect(Number(label.match(/(\d+) up/)?.[1])).toBeGreaterThanOrEqual(2)
    expect(Number(label.match(/(\d+) down/)?.[1])).toBeGreaterThanOrEqual(1)
    const beats = bar.locator('.beat:not(.beat-empty)')
    const newest = beats.last()
    expect(await newest.getAttribute('class')).toContain('beat-down')
    // The tooltip: time, location, latency and the reason.
    expect(await newest.getAttribute('title')).toMatch(/ · local · \d+ ms · Down: .*500/)
    const up = bar.locator('.beat-up').first()
    expect(await up.getAttribute('title')).toMatch(/ · local · \d+ ms · Up$/)
    const [upColour, downColour, emptyColour] = await Promise.all([
      colourOf(up),
      colourOf(newest),
      colourOf(bar.locator('.beat-empty').first()),
    ])
    expect(new Set([upColour, downColour, emptyColour]).size).toBe(3)
    expect(await bar.locator('.beat').count()).toBe(30)
    await shot(page, 'domains')

    await page.goto(`${guard.collectorUrl}/services`)
    const port = page.getByRole('row', { name: /Heartbeat port/ })
    await port.locator('.heartbeat .beat-up').first().waitFor({ timeout: 15_000 })
    expect(await port.locator('.heartbeat .beat-down').count()).toBe(0)
  }, 60_000)

  it('the detail pages fill their width with the latest checks, and still show them at 390 px', async () => {
    await page.goto(`${guard.collectorUrl}/domains/${ids.domain}`)
    const bar = page.locator('.heartbeat-wide')
    await bar.locator('.beat-down').first().waitFor({ timeout: 15_000 })
    const stored = await recentChecks(ids.domain)
    expect(await bar.locator('.beat:not(.beat-empty)').count()).toBeGreaterThanOrEqual(Math.min(stored.length, 3))
    expect(await seriousViolations(page)).toEqual([])
    await shot(page, 'domain-detail')

    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await bar.locator('.beat-down').first().waitFor({ timeout: 15_000 })
    const box = await page.locator('.heartbeat-card').boundingBox()
    const barBox = await bar.boundingBox()
    expect(barBox!.width).toBeLessThanOrEqual(box!.width)
    // As many bars as fit (6 px and a 2 px gap each), fewer than the 90 of a wide screen.
    expect(await bar.locator('.beat').count()).toBeLessThan(90)
    await shot(page, 'domain-detail-390')

    await page.goto(`${guard.collectorUrl}/services/${ids.service}`)
    await page.locator('.heartbeat-wide .beat-up').first().waitFor({ timeout: 15_000 })
    await page.goto(`${guard.collectorUrl}/domains`)
    const listBar = page.getByRole('row', { name: /Heartbeat site/ }).locator('.heartbeat')
    await listBar.locator('.beat-down').last().waitFor({ timeout: 15_000 })
    // A phone shows the newest 15 of a list's 30 bars.
    await expect.poll(() => listBar.locator('.beat:visible').count()).toBe(15)
    await shot(page, 'domains-390')

    // The overview reads at 390 px too: nothing makes the page scroll sideways.
    await page.goto(guard.collectorUrl)
    await page.getByRole('list', { name: 'Down now' }).getByRole('link', { name: 'Heartbeat site' }).waitFor()
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390)
    await shot(page, 'overview-390')
  }, 60_000)

  it('every screen and the sign-in page, at 1280 and 390 px in light and dark: no axe finding, nothing wider than a phone', async () => {
    const screens = [
      '/',
      '/domains',
      `/domains/${ids.domain}`,
      '/services',
      `/services/${ids.service}`,
      '/devices',
      '/incidents',
      '/status-pages',
      '/notifications',
      '/keys',
      '/integrations',
      '/toolbox',
      '/settings',
      '/settings/members',
      '/settings/profile',
    ]
    const findings: string[] = []
    // Every rule at 1280 px in light; in dark only contrast, the one thing the other palette can
    // break; at 390 px the layout, which must never scroll sideways. Screenshots of all four.
    const check = async (target: Page, name: string, rules: 'every' | 'contrast' | 'layout') => {
      if (rules === 'layout') {
        const width = await target.evaluate<number>('document.documentElement.scrollWidth')
        if (width > 390) findings.push(`${name}: ${width} px wide, scrolls sideways`)
      } else {
        const axe = new AxeBuilder({ page: target })
        if (rules === 'contrast') axe.withRules(['color-contrast'])
        const result = await axe.analyze()
        for (const violation of result.violations) {
          findings.push(
            `${name}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
          )
        }
      }
      await saveScreenshot(target, `console/gallery/${name}`)
    }
    for (const [size, viewport] of [
      ['1280', { width: 1280, height: 900 }],
      ['390', { width: 390, height: 844 }],
    ] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const rules = size === '390' ? 'layout' : colorScheme === 'light' ? 'every' : 'contrast'
        const context = await browser.newContext({ viewport, colorScheme })
        const visitor = await context.newPage()
        await visitor.goto(guard.collectorUrl)
        await visitor.getByRole('button', { name: 'Sign in' }).click()
        await visitor.getByLabel('Email').waitFor()
        await check(visitor, `sign-in-${size}-${colorScheme}`, rules)
        await visitor.getByLabel('Email').fill(guard.admin.email)
        await visitor.getByLabel('Password').fill(guard.admin.password)
        await visitor.getByRole('button', { name: 'Sign in' }).click()
        await visitor.waitForURL((url) => url.href.startsWith(guard.collectorUrl))
        for (const path of screens) {
          await visitor.goto(`${guard.collectorUrl}${path}`)
          await visitor.locator('#main h1').first().waitFor({ timeout: 15_000 })
          await expect.poll(() => visitor.locator('.loading').count(), { timeout: 15_000 }).toBe(0)
          const name =
            path === '/'
              ? 'overview'
              : path.slice(1).replaceAll('/', '-').replace(ids.domain, 'id').replace(ids.service, 'id')
          await check(visitor, `${name}-${size}-${colorScheme}`, rules)
        }
        await context.close()
      }
    }
    expect(findings).toEqual([])
  }, 240_000)
})
