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

describe.skipIf(!CHROMIUM)('console: tags and groups, in headless Chromium', () => {
  let guard: ConsoleGuard
  let browser: Browser
  let page: Page
  let shop: { id: string }

  beforeAll(async () => {
    guard = await startGuardForConsole()
    browser = await launchChromium()
    page = (await signInToConsole(browser, guard)).page
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await guard?.stop()
  })

  it('filters the domains by a tag, and the filter survives a reload', async () => {
    shop = await guard.rest<{ id: string }>('POST', '/api/domains', {
      url: 'http://127.0.0.1:9/a',
      name: 'Shop',
      tags: ['env:prod', 'team:web'],
    })
    await guard.rest('POST', '/api/domains', {
      url: 'http://127.0.0.1:9/b',
      name: 'Staging shop',
      tags: ['env:staging'],
    })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click()
    const table = page.getByRole('table', { name: 'Domains' })
    await table.getByRole('link', { name: 'Staging shop', exact: true }).waitFor()
    await table.getByRole('listitem').filter({ hasText: 'team:web' }).waitFor()

    await page.getByRole('combobox', { name: 'Filter domains by tag' }).fill('env:prod')
    await page.getByRole('button', { name: 'Add tag filter' }).click()
    await page.waitForURL(/[?&]tag=env%3Aprod/)
    await table.getByRole('link', { name: 'Staging shop', exact: true }).waitFor({ state: 'detached' })
    expect(await table.getByRole('link', { name: 'Shop', exact: true }).count()).toBe(1)

    await page.reload()
    await page.getByRole('table', { name: 'Domains' }).getByRole('link', { name: 'Shop', exact: true }).waitFor()
    expect(await page.getByRole('link', { name: 'Staging shop', exact: true }).count()).toBe(0)
    await page.getByRole('button', { name: /env:prod.*remove this tag filter/ }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
  }, 90_000)

  it('creates a group, adds a member and shows the group state', async () => {
    // Nothing listens on port 9: once checked, the domain is down, and so is a group of it alone.
    for (let attempt = 0; attempt < 120; attempt++) {
      if ((await guard.rest<{ status: string }>('GET', `/api/domains/${shop.id}`)).status === 'down') break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click()
    await page.getByRole('heading', { name: 'Groups', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Create a group' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create a group' })
    await dialog.getByLabel('Name').fill('Storefront')
    await dialog.getByRole('button', { name: 'Create the group' }).click()
    await dialog.waitFor({ state: 'hidden' })

    const panel = page.getByRole('region', { name: /Storefront/ })
    await panel.getByLabel('Monitor or device to add', { exact: true }).fill('sho')
    await panel
      .getByRole('list', { name: /matches/ })
      .getByRole('button', { name: /^Shop / })
      .click()
    await panel.getByRole('row', { name: /Shop/ }).waitFor()
    await page.locator('.group-row').filter({ hasText: '1 member' }).waitFor()
    expect(await page.locator('.group-row').first().textContent()).toContain('Down')
    await saveScreenshot(page, 'console/groups')
    expect(await seriousViolations(page)).toEqual([])
  }, 90_000)
})
