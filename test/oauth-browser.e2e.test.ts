import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  pkcePair,
  postForm,
  startTestIdentity,
  TEST_PASSWORD,
  type TestIdentity,
} from '../identity/src/oauth/testing.ts'
import { CHROMIUM, launchChromium, saveScreenshot } from './support/console-browser.ts'

const shot = (page: Page, name: string) => saveScreenshot(page, `oauth-browser/${name}`)

describe.skipIf(!CHROMIUM)('headless Chromium through the sign-in and consent pages', () => {
  let identity: TestIdentity
  let browser: Browser
  let callbackServer: Server
  let redirectUri: string

  beforeAll(async () => {
    // The relying party's callback: a page that just says it got an answer.
    callbackServer = createServer((_request, response) =>
      response.end('<!doctype html><title>Callback</title><h1>Back at the app</h1>'),
    )
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve))
    redirectUri = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`
    identity = await startTestIdentity()
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await identity?.close()
    await new Promise((resolve) => callbackServer?.close(resolve))
  })

  it('signs in, consents and lands on the client with a code that exchanges for tokens', async () => {
    const client = await identity.client({ name: 'Status dashboard', redirectUris: [redirectUri] })
    const pkce = pkcePair()
    const page = await browser.newPage()
    const authorize = new URL('/api/oauth/authorize', identity.url)
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: 'openid email profile organizations',
      state: 'browser-state',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }).toString()

    await page.goto(authorize.href)
    await page.getByLabel('Email').fill(identity.user.email)
    await page.getByLabel('Password').fill('not the password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    expect(await page.getByRole('alert').textContent()).toBe('Wrong email or password.')
    await shot(page, '1-sign-in-error')

    await page.getByLabel('Password').fill(TEST_PASSWORD)
    await shot(page, '2-sign-in')
    await page.getByRole('button', { name: 'Sign in' }).click()

    await page.waitForURL(/\/consent\?/)
    expect(await page.getByRole('heading').textContent()).toContain('Status dashboard')
    await shot(page, '3-consent')
    await page.getByRole('button', { name: 'Allow' }).click()

    await page.waitForURL((url) => url.href.startsWith(redirectUri))
    await shot(page, '4-callback')
    const callback = new URL(page.url())
    expect(callback.searchParams.get('state')).toBe('browser-state')
    expect(callback.searchParams.get('iss')).toBe(identity.url)

    const tokens = await postForm(`${identity.url}/api/oauth/token`, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: redirectUri,
      code_verifier: pkce.verifier,
      client_id: client.client_id,
      client_secret: client.client_secret ?? '',
    })
    expect(tokens.status).toBe(200)
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'openid email profile organizations' })
  })
})
