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

describe.skipIf(!CHROMIUM)('console: what status pages show of incidents, in headless Chromium', () => {
  let guard: ConsoleGuard
  let browser: Browser
  let page: Page
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    guard = await startGuardForConsole()
    browser = await launchChromium()
    page = (await signInToConsole(browser, guard)).page
    ids.shop = (
      await guard.rest<{ id: string }>('POST', '/api/domains', { url: 'http://127.0.0.1:9/shop', name: 'Shop' })
    ).id
    ids.page = (
      await guard.rest<{ id: string }>('POST', '/api/status-pages', {
        name: 'Acme',
        slug: 'acme-wording',
        isPublic: true,
      })
    ).id
    await guard.rest('POST', `/api/status-pages/${ids.page}/domains`, { domainId: ids.shop, displayName: 'Shop' })
    ids.incident = (
      await guard.rest<{ id: string }>('POST', '/api/incidents', {
        title: 'db-7 pool exhausted',
        affectedDomains: [ids.shop],
      })
    ).id
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await guard?.stop()
  })

  it('sets a page to hold automatic incidents as drafts', async () => {
    await page.goto(`${guard.collectorUrl}/status-pages/${ids.page}`)
    await page.getByLabel('Automatic incidents').selectOption('draft')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect
      .poll(
        async () =>
          (await guard.rest<{ automaticIncidents: string }>('GET', `/api/status-pages/${ids.page}`)).automaticIncidents,
      )
      .toBe('draft')
  }, 90_000)

  it("edits an incident's public title and update wording, shown on the public page", async () => {
    await page.goto(`${guard.collectorUrl}/incidents/${ids.incident}`)
    const section = page.getByRole('region', { name: 'On status pages' })
    await section.getByLabel('Public title').fill('Checkout is slow')
    await section.getByRole('textbox').nth(1).fill('We are adding capacity.')
    await section.getByRole('button', { name: 'Save public wording' }).click()
    interface Shown {
      data: { incidents: { active: Array<{ title: string; updates: Array<{ message: string }> }> } }
    }
    const shown = async () => {
      const body = (await (await fetch(`${guard.collectorUrl}/api/status-pages/acme-wording/public`)).json()) as Shown
      return body.data.incidents.active.map((incident) => [incident.title, incident.updates[0]?.message])
    }
    await expect.poll(shown, { timeout: 10_000 }).toEqual([['Checkout is slow', 'We are adding capacity.']])
    await saveScreenshot(page, 'console/incident-public-wording')
    expect(await seriousViolations(page)).toEqual([])
  }, 90_000)
})
