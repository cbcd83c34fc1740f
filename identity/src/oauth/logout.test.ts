import * as client from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedClient } from '../services/clients/create.ts'
import {
  authorizeUrl,
  HttpBrowser,
  hiddenField,
  pkcePair,
  postForm,
  startTestIdentity,
  TEST_PASSWORD,
  type TestIdentity,
} from './testing.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
const AFTER_LOGOUT = 'http://127.0.0.1:9/signed-out'
let identity: TestIdentity
let app: CreatedClient
let config: client.Configuration

beforeAll(async () => {
  identity = await startTestIdentity()
  app = await identity.client({
    isPublic: true,
    firstParty: true,
    redirectUris: [REDIRECT],
    postLogoutRedirectUris: [AFTER_LOGOUT],
  })
  config = await client.discovery(new URL(identity.url), app.client_id, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  })
})
afterAll(() => identity?.close())

/** A browser signed in through the app; returns it with the app's ID token. */
async function signedIn() {
  const browser = new HttpBrowser()
  const pkce = pkcePair()
  const callback = await browser.authorize(
    authorizeUrl(identity, {
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }),
    { email: identity.user.email, password: TEST_PASSWORD },
  )
  const { body } = await postForm(`${identity.url}/api/oauth/token`, {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code') ?? '',
    redirect_uri: REDIRECT,
    code_verifier: pkce.verifier,
    client_id: app.client_id,
  })
  return { browser, idToken: body.id_token as string }
}

/** prompt=none: a code while the browser's session lives, login_required once it has ended. */
async function silentAuthorize(browser: HttpBrowser) {
  const pkce = pkcePair()
  const response = await browser.request(
    authorizeUrl(identity, {
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      prompt: 'none',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }),
  )
  const location = new URL(response.headers.get('location') ?? '')
  return location.searchParams.get('error') ?? (location.searchParams.get('code') ? 'code' : 'nothing')
}

describe('RP-initiated logout', () => {
  it('discovery names the end_session_endpoint', () => {
    expect(config.serverMetadata().end_session_endpoint).toBe(`${identity.url}/api/oauth/logout`)
  })

  it('ends the session and redirects, with state, only to a registered post_logout_redirect_uri', async () => {
    const { browser, idToken } = await signedIn()
    expect(await silentAuthorize(browser)).toBe('code')

    for (const target of ['https://evil.example/', `${AFTER_LOGOUT}/x`]) {
      const url = client.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: target })
      const refused = await browser.request(url.href)
      expect(refused.status).toBe(400)
      expect(refused.headers.get('location')).toBeNull()
    }
    expect(await silentAuthorize(browser)).toBe('code')

    const url = client.buildEndSessionUrl(config, {
      id_token_hint: idToken,
      post_logout_redirect_uri: AFTER_LOGOUT,
      state: 's1',
    })
    const response = await browser.request(url.href)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`${AFTER_LOGOUT}?state=s1`)
    expect(await silentAuthorize(browser)).toBe('login_required')
  })

  it('asks the user to confirm a logout without an ID token of theirs, and signs out on confirmation', async () => {
    const { browser } = await signedIn()
    const page = await browser.request(`${identity.url}/api/oauth/logout?client_id=${app.client_id}`)
    expect(page.status).toBe(200)
    const text = await page.text()
    expect(text).toContain('Sign out of Guard?')
    expect(await silentAuthorize(browser)).toBe('code')
    const confirmed = await browser.request(`${identity.url}/api/oauth/logout`, {
      form: { csrf: hiddenField(text, 'csrf'), client_id: app.client_id },
    })
    expect(confirmed.status).toBe(200)
    expect(await confirmed.text()).toContain('You are signed out')
    expect(await silentAuthorize(browser)).toBe('login_required')
  })
})
