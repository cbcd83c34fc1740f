import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { LOGO_SVG } from '@guard/shared/brand'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  authorizeUrl,
  HttpBrowser,
  hiddenField,
  openSignInPage,
  pkcePair,
  startTestIdentity,
  TEST_PASSWORD,
  type TestIdentity,
} from '../oauth/testing.ts'
import type { CreatedClient } from '../services/clients/create.ts'
import { LASTING_ACCESS_TEXT, SCOPE_TEXT } from './consent.ts'
import { escapeHtml } from './html.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
let identity: TestIdentity
let thirdParty: CreatedClient
let firstParty: CreatedClient

beforeAll(async () => {
  identity = await startTestIdentity()
  thirdParty = await identity.client({ name: 'Dashboard <beta>', redirectUris: [REDIRECT] })
  firstParty = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
})
afterAll(() => identity?.close())

const credentials = () => ({ email: identity.user.email, password: TEST_PASSWORD })

function requestFor(client: CreatedClient, scope = 'openid email') {
  const pkce = pkcePair()
  return authorizeUrl(identity, {
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
  })
}

/** Opens the sign-in page the authorize endpoint sends a new browser to. */
const openSignIn = (browser: HttpBrowser) => openSignInPage(identity, browser, firstParty, { scope: 'openid email' })

describe('sign-in and consent pages', () => {
  it('the sign-in page is a plain labelled form that cannot be framed, its only scripts identity’s own passkey files', async () => {
    const { response, page } = await openSignIn(new HttpBrowser())
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(page).toContain('<label for="email">')
    expect(page).toContain('<label for="password">')
    expect(page).toContain('<form method="post" action="/sign-in">')
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect([...page.matchAll(/<script[^>]*>/g)].map(([tag]) => tag)).toEqual([
      '<script src="/assets/simplewebauthn-browser.js">',
      '<script src="/assets/passkeys.js">',
    ])
  })

  it('the sign-in page wears the console brand: its tokens in light and dark, the product mark and name', async () => {
    const { page } = await openSignIn(new HttpBrowser())
    const tokens = await readFile(fileURLToPath(import.meta.resolve('@guard/shared/brand/tokens.css')), 'utf8')
    expect(page).toContain(tokens)
    expect(page).toContain('@media (prefers-color-scheme: dark)')
    expect(page).toContain(LOGO_SVG)
    expect(page).toMatch(/<title>Sign in · Guard<\/title>/)
  })

  it('wrong credentials show an error on the page, never a stack trace', async () => {
    const browser = new HttpBrowser()
    const { page } = await openSignIn(browser)
    const response = await browser.request(`${identity.url}/sign-in`, {
      form: {
        csrf: hiddenField(page, 'csrf'),
        return_to: hiddenField(page, 'return_to'),
        email: identity.user.email,
        password: 'wrong password!',
      },
    })
    expect(response.status).toBe(401)
    const body = await response.text()
    expect(body).toContain('Wrong email or password.')
    expect(body).not.toMatch(/at .*\.ts:\d+/)
    expect(response.headers.get('set-cookie') ?? '').not.toContain('guard_session')
  })

  it('a sign-in without the CSRF token of this browser is refused', async () => {
    const victim = new HttpBrowser()
    const { page } = await openSignIn(new HttpBrowser())
    const response = await victim.request(`${identity.url}/sign-in`, {
      form: { csrf: hiddenField(page, 'csrf'), return_to: hiddenField(page, 'return_to'), ...credentials() },
    })
    expect(response.status).toBe(403)
  })

  it('the session cookie is signed, HttpOnly and SameSite=Lax', async () => {
    const browser = new HttpBrowser()
    const { page } = await openSignIn(browser)
    const response = await browser.request(`${identity.url}/sign-in`, {
      form: { csrf: hiddenField(page, 'csrf'), return_to: hiddenField(page, 'return_to'), ...credentials() },
    })
    expect(response.status).toBe(303)
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('guard_session='))
    expect(cookie).toMatch(/^guard_session=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}; /)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).not.toContain('Secure')
  })

  it('cookies are Secure when the issuer is https', async () => {
    const issuer = identity.ctx.issuer
    identity.ctx.issuer = 'https://id.example'
    try {
      const { response } = await openSignIn(new HttpBrowser())
      expect(response.headers.getSetCookie().find((line) => line.startsWith('guard_csrf='))).toContain('; Secure')
    } finally {
      identity.ctx.issuer = issuer
    }
  })

  it('a return_to beyond Latin-1 is percent-encoded in the redirect after sign-in, never a 500', async () => {
    const browser = new HttpBrowser()
    // On the wire: return_to=%2Fapi%2Foauth%2Fauthorize%3Fstate%3Dcaf%C3%A9%E2%9C%93
    const form = await browser.request(
      `${identity.url}/sign-in?return_to=${encodeURIComponent('/api/oauth/authorize?state=caf\u00e9\u2713')}`,
    )
    expect(form.status).toBe(200)
    const page = await form.text()
    const signedIn = await browser.request(`${identity.url}/sign-in`, {
      form: { csrf: hiddenField(page, 'csrf'), return_to: hiddenField(page, 'return_to'), ...credentials() },
    })
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get('location')).toBe('/api/oauth/authorize?state=caf%C3%A9%E2%9C%93')
  })

  it('the sign-in page only returns into the authorization flow', async () => {
    const response = await fetch(`${identity.url}/sign-in?return_to=${encodeURIComponent('https://evil.example/')}`)
    expect(response.status).toBe(400)
  })

  it('consent is shown once, then remembered per user, client and scopes', async () => {
    const browser = new HttpBrowser()
    const first = await browser.authorize(requestFor(thirdParty), credentials())
    expect(first.searchParams.get('code')).toBeTruthy()
    // Same scopes again: straight back with a code.
    const again = await browser.request(requestFor(thirdParty))
    expect(again.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/)
    // A wider request asks again, and the page names the client, escaped.
    const wider = await browser.request(requestFor(thirdParty, 'openid email organizations'))
    expect(wider.headers.get('location')).toMatch(/^\/consent\?/)
    const page = await (await browser.request(new URL(wider.headers.get('location') ?? '', identity.url).href)).text()
    expect(page).toContain('Dashboard &lt;beta&gt;')
    expect(page).toContain('See which organizations you belong to')
  })

  it('the consent page names every power the application receives, lasting access included', async () => {
    const browser = new HttpBrowser()
    const scopes = ['openid', 'email', 'profile', 'organizations', 'read', 'write'] as const
    const start = await browser.authorize(requestFor(thirdParty, 'openid'), credentials())
    expect(start.searchParams.get('code')).toBeTruthy()
    const asked = await browser.request(requestFor(thirdParty, scopes.join(' ')))
    const page = await (await browser.request(new URL(asked.headers.get('location') ?? '', identity.url).href)).text()
    const items = [...page.matchAll(/<li>([^<]*)<\/li>/g)].map((match) => match[1])
    expect(items).toEqual([...scopes.map((scope) => escapeHtml(SCOPE_TEXT[scope])), escapeHtml(LASTING_ACCESS_TEXT)])
    // The powers an assistant is easiest to miss: scans from Guard's probes, and access that outlasts the visit.
    expect(page).toContain('run DNS lookups and port scans')
    expect(page).toContain('Keep this access while you are away')
    expect(page).not.toContain('act in them')
  })

  it('first-party clients skip consent', async () => {
    const browser = new HttpBrowser()
    const signIn = await browser.request(requestFor(firstParty))
    expect(signIn.headers.get('location')).toMatch(/^\/sign-in/)
    const callback = await browser.authorize(requestFor(firstParty), credentials())
    expect(callback.searchParams.get('code')).toBeTruthy()
    const { rows } = await identity.sql.query('SELECT 1 FROM identity.consents WHERE client_id = $1', [
      firstParty.client_id,
    ])
    expect(rows).toHaveLength(0)
  })

  it('denying consent sends the client access_denied', async () => {
    const other = await identity.client({ redirectUris: [REDIRECT] })
    const callback = await new HttpBrowser().authorize(requestFor(other), credentials(), 'deny')
    expect(callback.searchParams.get('error')).toBe('access_denied')
    expect(callback.searchParams.get('iss')).toBe(identity.url)
  })
})
