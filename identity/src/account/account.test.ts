import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  authorizeUrl,
  HttpBrowser,
  hiddenField,
  pkcePair,
  postForm,
  startTestIdentity,
  TEST_PASSWORD,
  type TestIdentity,
} from '../oauth/testing.ts'
import type { CreatedClient } from '../services/clients/create.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
let identity: TestIdentity
let app: CreatedClient

beforeAll(async () => {
  identity = await startTestIdentity()
  app = await identity.client({ isPublic: true, firstParty: true, redirectUris: [REDIRECT] })
})
afterAll(() => identity?.close())

/** A fresh browser signs in through the app; returns it with its tokens. */
async function signIn(password = TEST_PASSWORD) {
  const browser = new HttpBrowser()
  const pkce = pkcePair()
  const callback = await browser.authorize(
    authorizeUrl(identity, {
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }),
    { email: identity.user.email, password },
  )
  const { body } = await postForm(`${identity.url}/api/oauth/token`, {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code') ?? '',
    redirect_uri: REDIRECT,
    code_verifier: pkce.verifier,
    client_id: app.client_id,
  })
  return { browser, accessToken: body.access_token as string, refreshToken: body.refresh_token as string }
}

async function signedIn(browser: HttpBrowser) {
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
  return new URL(response.headers.get('location') ?? '').searchParams.has('code')
}

const account = (accessToken: string, method: string, path: string, body?: unknown) =>
  fetch(`${identity.url}/api/v1/account${path}`, {
    method,
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

const refresh = (refreshToken: string) =>
  postForm(`${identity.url}/api/oauth/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: app.client_id,
  })

describe('my sessions and my password', () => {
  it('lists my sessions with where they came from, and ends the one I choose', async () => {
    const first = await signIn()
    const second = await signIn()
    const listed = (await (await account(first.accessToken, 'GET', '/sessions')).json()) as {
      sessions: Array<{ id: string; ip: string }>
    }
    expect(listed.sessions.length).toBeGreaterThanOrEqual(2)
    expect(listed.sessions[0]).toMatchObject({ ip: '127.0.0.1' })
    // Newest first: the second browser's session.
    const newest = listed.sessions[0]!.id
    expect((await account(first.accessToken, 'DELETE', `/sessions/${newest}`)).status).toBe(200)
    expect(await signedIn(second.browser)).toBe(false)
    expect(await signedIn(first.browser)).toBe(true)
    expect((await account(first.accessToken, 'DELETE', `/sessions/${newest}`)).status).toBe(404)
    expect((await fetch(`${identity.url}/api/v1/account/sessions`)).status).toBe(401)
  })

  it('a password change needs the current password and ends every other session and refresh token', async () => {
    const other = await signIn()
    const mine = await signIn()
    const wrong = await account(mine.accessToken, 'POST', '/password', {
      currentPassword: 'not it at all',
      newPassword: 'a brand new password',
    })
    expect(wrong.status).toBe(403)
    const { rows } = await identity.sql.query<{ failures: number }>(
      "SELECT failures FROM identity.sign_in_throttle WHERE key = 'account:ann@example.org'",
    )
    expect(rows[0]?.failures).toBe(1)
    const changed = await account(mine.accessToken, 'POST', '/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'a brand new password',
    })
    expect(changed.status).toBe(200)

    expect(await signedIn(other.browser)).toBe(false)
    expect(await signedIn(mine.browser)).toBe(false)
    expect((await refresh(other.refreshToken)).status).toBe(400)
    expect((await refresh(mine.refreshToken)).status).toBe(200)
    await expect(signIn(TEST_PASSWORD)).rejects.toThrow(/401/)
    expect((await signIn('a brand new password')).accessToken).toBeTruthy()
  })

  it('the account page lists my sessions, signs another out, and changes the password keeping this browser', async () => {
    const other = await signIn('a brand new password')
    const mine = await signIn('a brand new password')
    const page = await (await mine.browser.request(`${identity.url}/account`)).text()
    expect(page).toContain('(this browser)')
    expect(await signedIn(other.browser)).toBe(true)
    const ended = await mine.browser.request(`${identity.url}/account/sessions/end`, {
      form: { csrf: hiddenField(page, 'csrf'), id: hiddenField(page, 'id') },
    })
    expect(ended.status).toBe(200)
    expect(await signedIn(other.browser)).toBe(false)

    const wrong = await mine.browser.request(`${identity.url}/account/password`, {
      form: { csrf: hiddenField(page, 'csrf'), current: 'not the password', new: 'yet another password' },
    })
    expect(wrong.status).toBe(403)
    const third = await signIn('a brand new password')
    const changed = await mine.browser.request(`${identity.url}/account/password`, {
      form: { csrf: hiddenField(page, 'csrf'), current: 'a brand new password', new: 'yet another password' },
    })
    expect(changed.status).toBe(200)
    expect(await signedIn(mine.browser)).toBe(true)
    expect(await signedIn(third.browser)).toBe(false)
    expect((await refresh(third.refreshToken)).status).toBe(400)
    expect((await new HttpBrowser().request(`${identity.url}/account`)).status).toBe(302)
  })
})
