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

describe.skipIf(!CHROMIUM)('the console: device enrolment and integration names, in headless Chromium', () => {
  let guard: ConsoleGuard
  let browser: Browser
  let context: BrowserContext
  let page: Page

  const open = async (path: string) => {
    await page.goto(new URL(path, guard.collectorUrl).toString())
    await page.locator('main h1').first().waitFor({ timeout: 15_000 })
  }
  /** The text of the block labelled `label`, and that block's Copy button. */
  const block = (label: string) => {
    const section = page.getByRole('region', { name: label, exact: true })
    return {
      pre: section.locator('pre'),
      copy: section.getByRole('button', { name: new RegExp(`^Cop(y|ied) ${label}$`, 'i') }),
    }
  }
  const deviceCount = async () =>
    (
      (await (
        await fetch(new URL('/api/devices', guard.collectorUrl), {
          headers: { authorization: `Bearer ${guard.apiKey}` },
        })
      ).json()) as { data: unknown[] }
    ).data.length

  beforeAll(async () => {
    guard = await startGuardForConsole()
    browser = await launchChromium()
    ;({ context, page } = await signInToConsole(browser, guard))
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: guard.collectorUrl })
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await guard?.stop()
  })

  it('enrols a device with whole, multi-line commands whose Copy button copies all of them', async () => {
    await open('/devices')
    await page.getByRole('button', { name: 'Enrol a device' }).click()
    // Before anything exists, the alternative that creates the device from the machine itself.
    const fromMachine = block('Enrol command')
    await page.getByLabel('Name').fill('db-1')
    await expect
      .poll(() => fromMachine.pre.textContent())
      .toMatch(/\/agent\/install\.sh \| sudo sh -s -- --key "\$GUARD_API_KEY" --name db-1$/)
    await page.getByRole('button', { name: 'Enrol', exact: true }).click()

    const install = block('Install command')
    await install.pre.waitFor()
    const token = (await block('Agent token').pre.textContent()) ?? ''
    expect(token).toMatch(/^gdt_/)
    const text = (await install.pre.textContent()) ?? ''
    expect(text.split('\n').length).toBeGreaterThan(5)
    expect(text).toContain(`"token": "${token}"`)
    // For this device: nothing in it enrols another.
    expect(text).not.toContain('enroll')
    // Wrapped, never cut: nothing runs off the block's right edge.
    expect(await install.pre.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true)

    await install.copy.click()
    await expect.poll(() => install.copy.textContent()).toBe('Copied install command')
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(text)
    expect(await seriousViolations(page)).toEqual([])
    await saveScreenshot(page, 'console/devices-enrol-copied')

    // Without the async clipboard (plain http on another host) the block's text is selected to copy by hand.
    const run = block('Run command')
    await page.evaluate("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    await run.copy.click()
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: /Run command copied|press Ctrl\+C/ })
          .count(),
      )
      .toBe(1)
    expect(await page.evaluate('window.getSelection().toString()')).toBe(await run.pre.textContent())

    await page.getByRole('button', { name: 'Done' }).click()
    expect(await deviceCount()).toBe(1)
  })

  it('shows a device that never reported as waiting for its first heartbeat, not offline', async () => {
    await open('/devices')
    const row = page.getByRole('row', { name: /db-1/ })
    await expect.poll(() => row.textContent()).toMatch(/Waiting for first heartbeat/)
    expect(await row.textContent()).not.toMatch(/Offline/)
    await row.getByRole('link', { name: 'db-1' }).click()
    await page.getByRole('heading', { name: 'db-1' }).waitFor()
    const head = page.locator('header.page-head')
    await expect.poll(() => head.textContent()).toMatch(/Waiting for first heartbeat/)
    expect(await head.locator('.state').getAttribute('class')).toContain('state-pending')
    expect(await seriousViolations(page)).toEqual([])

    // Its commands again come with a new token, for this same device.
    await page.getByRole('button', { name: 'New token and commands' }).click()
    await page.getByRole('button', { name: 'Regenerate', exact: true }).click()
    const install = block('Install command')
    await install.pre.waitFor()
    expect(await install.pre.textContent()).not.toContain('enroll')
    expect(await deviceCount()).toBe(1)
  })

  it("names each integration's product", async () => {
    await open('/integrations')
    for (const name of ['Microsoft Azure', 'Coolify', 'Vercel'])
      await page.getByRole('heading', { name, exact: true }).waitFor()
    expect(await page.locator('main').textContent()).toContain('/api/selfhost-b/…')
  })
})
