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

describe.skipIf(!CHROMIUM)("console: a monitor's dependencies, in headless Chromium", () => {
  let guard: ConsoleGuard
  let browser: Browser
  let page: Page
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    guard = await startGuardForConsole()
    browser = await launchChromium()
    page = (await signInToConsole(browser, guard)).page
    for (const [key, name] of [
      ['gateway', 'Gateway'],
      ['shop', 'Shop'],
    ] as const) {
      ids[key] = (
        await guard.rest<{ id: string }>('POST', '/api/domains', { url: `http://127.0.0.1:9/${key}`, name })
      ).id
    }
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await guard?.stop()
  })

  /** Types part of the name into the picker's search and picks the match the server answers. */
  const pick = async (section: ReturnType<Page['getByRole']>, search: string, name: string) => {
    await section.getByLabel('Add a monitor it depends on', { exact: true }).fill(search)
    await section
      .getByRole('list', { name: /matches/ })
      .getByRole('button', { name: new RegExp(`^${name} `) })
      .click()
  }

  it('picks a parent by searching on the detail page and draws it above the monitor', async () => {
    await page.goto(`${guard.collectorUrl}/domains/${ids.shop}`)
    const section = page.getByRole('region', { name: 'Dependencies' })
    await pick(section, 'gate', 'Gateway')
    await section.getByRole('list', { name: 'Depends on' }).getByText('Gateway').waitFor()
    await section.getByRole('button', { name: 'Save dependencies' }).click()
    await section.getByRole('img', { name: 'Shop depends on 1 monitors; 0 depend on it' }).waitFor()
    expect(await section.locator('svg text').allTextContents()).toEqual(['Gateway', 'Shop'])
    await saveScreenshot(page, 'console/dependencies')
    expect(await seriousViolations(page)).toEqual([])
  }, 90_000)

  it("shows the API's message when the pick would make a cycle", async () => {
    await page.goto(`${guard.collectorUrl}/domains/${ids.gateway}`)
    const section = page.getByRole('region', { name: 'Dependencies' })
    await section.getByRole('img', { name: 'Gateway depends on 0 monitors; 1 depend on it' }).waitFor()
    await pick(section, 'sho', 'Shop')
    await section.getByRole('button', { name: 'Save dependencies' }).click()
    await expect.poll(async () => (await section.getByRole('alert').textContent()) ?? '').toMatch(/cycle/i)
  }, 90_000)
})
