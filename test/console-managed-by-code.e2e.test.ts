import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CHROMIUM,
  type ConsoleGuard,
  launchChromium,
  signInToConsole,
  startGuardForConsole,
} from './support/console-browser.ts'

describe.skipIf(!CHROMIUM)('console: objects managed by code', () => {
  let guard: ConsoleGuard
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    guard = await startGuardForConsole()
    browser = await launchChromium()
    page = (await signInToConsole(browser, guard)).page
    await guard.rest('POST', '/api/domains', { url: 'http://127.0.0.1:9/by-hand', name: 'Made by hand' })
    await guard.rest('POST', '/api/config/apply', {
      version: 1,
      domains: [{ id: 'shop', name: 'Shop from code', url: 'http://127.0.0.1:9/shop' }],
      services: [{ id: 'db', name: 'DB from code', protocol: 'tcp', protocolConfig: { host: '127.0.0.1', port: 9 } }],
      heartbeats: [{ id: 'backup', name: 'Backup from code', every: 86400 }],
    })
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await guard?.stop()
  })

  it('marks what guard apply manages in the lists, and only that', async () => {
    for (const [path, name] of [
      ['/domains', 'Shop from code'],
      ['/services', 'DB from code'],
      ['/heartbeats', 'Backup from code'],
    ] as const) {
      await page.goto(`${guard.collectorUrl}${path}`)
      const row = page.getByRole('row', { name: new RegExp(name) })
      await row.waitFor()
      await expect.poll(() => row.textContent()).toContain('managed by code')
    }
    await page.goto(`${guard.collectorUrl}/domains`)
    const byHand = page.getByRole('row', { name: /Made by hand/ })
    await byHand.waitFor()
    expect(await byHand.textContent()).not.toContain('managed by code')
  })

  it('warns on the pages that edit a managed object', async () => {
    const [heartbeat] = await guard.rest<Array<{ id: string }>>('GET', '/api/heartbeats')
    await page.goto(`${guard.collectorUrl}/heartbeats/${encodeURIComponent(heartbeat!.id)}`)
    await page.getByRole('note').filter({ hasText: 'managed by code' }).waitFor()
  })
})
