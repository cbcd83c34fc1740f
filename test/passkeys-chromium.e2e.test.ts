import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestIdentity, TEST_PASSWORD, type TestIdentity } from '../identity/src/oauth/testing.ts'
import { CHROMIUM, launchChromium } from './support/console-browser.ts'

let identity: TestIdentity
let browser: Browser
/** Browsers refuse WebAuthn on an IP address: the relying party is `localhost`. */
let origin: string

beforeAll(async () => {
  identity = await startTestIdentity()
  origin = identity.url.replace('127.0.0.1', 'localhost')
  identity.ctx.issuer = origin
  browser = await launchChromium()
}, 180_000)
afterAll(async () => {
  await browser?.close()
  await identity?.close()
})

async function withVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
}

describe.skipIf(!CHROMIUM)('passkeys in Chromium (DevTools virtual authenticator)', () => {
  it('registers a passkey, signs in with it alone, then removes it', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await withVirtualAuthenticator(page)
    await page.goto(`${origin}/sign-in?return_to=%2Faccount`)
    await page.fill('#email', identity.user.email)
    await page.fill('#password', TEST_PASSWORD)
    await Promise.all([page.waitForURL(`${origin}/account`), page.click('button[type=submit]')])

    await page.goto(`${origin}/account/security`)
    await page.fill('#passkey-name', 'Chromium')
    await Promise.all([page.waitForEvent('load'), page.click('[data-passkey-register]')])
    await expect.poll(() => page.textContent('main')).toContain('Chromium')

    await context.clearCookies()
    await page.goto(`${origin}/sign-in?return_to=%2Faccount`)
    // The virtual authenticator may answer the page's conditional (autofill) request before any
    // click; either way the passkey alone signs in.
    await page.click('[data-passkey="passwordless"]', { timeout: 5_000 }).catch(() => undefined)
    await page.waitForURL(`${origin}/account`)
    expect(await page.textContent('h1')).toBe('Your account')

    await page.goto(`${origin}/account/security`)
    await page.click('form[action="/account/security/passkeys/remove"] button')
    await expect.poll(() => page.textContent('main')).toContain('The passkey is removed.')
    await context.close()
  }, 120_000)
})
