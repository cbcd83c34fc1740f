import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedClient } from '../services/clients/create.ts'
import { authorizeUrl, HttpBrowser, pkcePair, startTestIdentity, TEST_PASSWORD, type TestIdentity } from './testing.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
let identity: TestIdentity
let confidential: CreatedClient
let publicClient: CreatedClient
let native: CreatedClient
/** One signed-in browser for the tests that need a session. */
let browser: HttpBrowser

const credentials = () => ({ email: identity.user.email, password: TEST_PASSWORD })

beforeAll(async () => {
  identity = await startTestIdentity()
  confidential = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
  publicClient = await identity.client({ isPublic: true, redirectUris: [REDIRECT], firstParty: true })
  native = await identity.client({ isPublic: true, redirectUris: ['http://127.0.0.1/native'], firstParty: true })
  browser = new HttpBrowser()
  const pkce = pkcePair()
  await browser.authorize(
    authorizeUrl(identity, {
      client_id: publicClient.client_id,
      redirect_uri: REDIRECT,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }),
    credentials(),
  )
})
afterAll(() => identity?.close())

/** One authorize request from the signed-in browser; returns where the provider sends it. */
async function authorizeOnce(params: Record<string, string>) {
  const response = await browser.request(authorizeUrl(identity, params))
  const location = response.headers.get('location')
  return { status: response.status, location: location ? new URL(location, identity.url) : undefined, response }
}

const withPkce = (params: Record<string, string>) => {
  const pkce = pkcePair()
  return { ...params, code_challenge: pkce.challenge, code_challenge_method: 'S256' }
}

describe('authorization endpoint', () => {
  it('unknown client_id gets an error page, never a redirect', async () => {
    const { status, location, response } = await authorizeOnce(withPkce({ client_id: 'nope', redirect_uri: REDIRECT }))
    expect(status).toBe(400)
    expect(location).toBeUndefined()
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await response.text()).toContain('not registered')
  })

  it('redirect mismatch gets an error page, never a redirect', async () => {
    for (const redirect of ['http://127.0.0.1:9/callback/', 'http://127.0.0.1:9/other', 'https://evil.example/cb']) {
      const { status, location } = await authorizeOnce(
        withPkce({ client_id: confidential.client_id, redirect_uri: redirect }),
      )
      expect(status).toBe(400)
      expect(location).toBeUndefined()
    }
  })

  it('loopback redirect URIs of native clients match on any port, and only those', async () => {
    const nativeAnswer = await authorizeOnce(
      withPkce({ client_id: native.client_id, redirect_uri: 'http://127.0.0.1:51234/native' }),
    )
    expect(nativeAnswer.location?.href).toMatch(/^http:\/\/127\.0\.0\.1:51234\/native\?code=/)
    const otherPath = await authorizeOnce(
      withPkce({ client_id: native.client_id, redirect_uri: 'http://127.0.0.1:51234/other' }),
    )
    expect(otherPath.status).toBe(400)
    const confidentialOtherPort = await authorizeOnce(
      withPkce({ client_id: confidential.client_id, redirect_uri: 'http://127.0.0.1:10/callback' }),
    )
    expect(confidentialOtherPort.status).toBe(400)
  })

  it('iss in every authorization response and state echoed, on success and on error', async () => {
    const success = await authorizeOnce(
      withPkce({ client_id: publicClient.client_id, redirect_uri: REDIRECT, state: 's1' }),
    )
    expect(success.location?.searchParams.get('iss')).toBe(identity.url)
    expect(success.location?.searchParams.get('state')).toBe('s1')
    expect(success.location?.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const failure = await authorizeOnce({ client_id: publicClient.client_id, redirect_uri: REDIRECT, state: 's2' })
    expect(failure.location?.searchParams.get('iss')).toBe(identity.url)
    expect(failure.location?.searchParams.get('state')).toBe('s2')
  })

  it('PKCE plain is refused', async () => {
    const { location } = await authorizeOnce({
      client_id: confidential.client_id,
      redirect_uri: REDIRECT,
      code_challenge: pkcePair().verifier,
      code_challenge_method: 'plain',
    })
    expect(location?.searchParams.get('error')).toBe('invalid_request')
  })

  it('PKCE missing method is refused', async () => {
    const { location } = await authorizeOnce({
      client_id: confidential.client_id,
      redirect_uri: REDIRECT,
      code_challenge: pkcePair().challenge,
    })
    expect(location?.searchParams.get('error')).toBe('invalid_request')
  })

  it('PKCE missing for a public client, or a client with requirePkce, is refused', async () => {
    for (const client of [publicClient, confidential]) {
      const { location } = await authorizeOnce({ client_id: client.client_id, redirect_uri: REDIRECT })
      expect(location?.searchParams.get('error')).toBe('invalid_request')
      expect(location?.searchParams.get('error_description')).toMatch(/PKCE/)
    }
  })

  it('only response_type code is supported', async () => {
    const { location } = await authorizeOnce(
      withPkce({ client_id: publicClient.client_id, redirect_uri: REDIRECT, response_type: 'token' }),
    )
    expect(location?.searchParams.get('error')).toBe('unsupported_response_type')
  })

  it('unknown scopes are invalid_scope', async () => {
    const { location } = await authorizeOnce(
      withPkce({ client_id: publicClient.client_id, redirect_uri: REDIRECT, scope: 'openid admin' }),
    )
    expect(location?.searchParams.get('error')).toBe('invalid_scope')
  })

  it('prompt=none answers login_required without a session', async () => {
    const response = await new HttpBrowser().request(
      authorizeUrl(
        identity,
        withPkce({ client_id: publicClient.client_id, redirect_uri: REDIRECT, prompt: 'none', state: 'x' }),
      ),
    )
    const location = new URL(response.headers.get('location') ?? '')
    expect(location.origin + location.pathname).toBe(REDIRECT)
    expect(location.searchParams.get('error')).toBe('login_required')
    expect(location.searchParams.get('state')).toBe('x')
  })

  it('prompt=none answers consent_required when consent is missing', async () => {
    const thirdParty = await identity.client({ isPublic: true, redirectUris: [REDIRECT] })
    const { location } = await authorizeOnce(
      withPkce({ client_id: thirdParty.client_id, redirect_uri: REDIRECT, prompt: 'none' }),
    )
    expect(location?.searchParams.get('error')).toBe('consent_required')
  })

  it('without a session the user is sent to the sign-in page', async () => {
    const response = await new HttpBrowser().request(
      authorizeUrl(identity, withPkce({ client_id: publicClient.client_id, redirect_uri: REDIRECT })),
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toMatch(/^\/sign-in\?return_to=%2Fapi%2Foauth%2Fauthorize%3F/)
  })

  it('grants the default scopes openid email profile when scope is omitted', async () => {
    const fresh = new HttpBrowser()
    const callback = await fresh.authorize(
      authorizeUrl(identity, withPkce({ client_id: confidential.client_id, redirect_uri: REDIRECT })),
      credentials(),
    )
    const { rows } = await identity.sql.query<{ scopes: string[] }>(
      'SELECT scopes FROM identity.authorization_codes ORDER BY expires_at DESC LIMIT 1',
    )
    expect(callback.searchParams.get('code')).toBeTruthy()
    expect(rows[0]?.scopes).toEqual(['openid', 'email', 'profile'])
  })

  it('prompt=login and max_age=0 send a signed-in browser to the sign-in page, then on to the client', async () => {
    const plain = await authorizeOnce(withPkce({ client_id: publicClient.client_id, redirect_uri: REDIRECT }))
    expect(plain.location?.searchParams.get('code')).toBeTruthy()
    for (const fresh of [{ prompt: 'login' }, { max_age: '0' }] as Record<string, string>[]) {
      const params = withPkce({ client_id: publicClient.client_id, redirect_uri: REDIRECT, ...fresh })
      const { status, location } = await authorizeOnce(params)
      expect(status).toBe(302)
      expect(location?.pathname).toBe('/sign-in')
      // Back from the sign-in, the request no longer asks for one, so it does not loop.
      const returnTo = location?.searchParams.get('return_to') ?? ''
      expect(returnTo).not.toMatch(/prompt=|max_age=/)
      const before = Date.now()
      const callback = await browser.authorize(authorizeUrl(identity, params), credentials())
      expect(callback.searchParams.get('code')).toBeTruthy()
      const { rows } = await identity.sql.query<{ auth_time: Date }>(
        'SELECT auth_time FROM identity.authorization_codes ORDER BY expires_at DESC LIMIT 1',
      )
      expect(new Date(rows[0]!.auth_time).getTime()).toBeGreaterThanOrEqual(before - 1000)
    }
  })

  it('prompt=none with a sign-in older than max_age answers login_required', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const { location } = await authorizeOnce(
      withPkce({ client_id: publicClient.client_id, redirect_uri: REDIRECT, prompt: 'none', max_age: '1' }),
    )
    expect(location?.searchParams.get('error')).toBe('login_required')
  })

  it('prompt=consent shows the consent page even to a first-party client, and a bad prompt is refused', async () => {
    const { location } = await authorizeOnce(
      withPkce({ client_id: publicClient.client_id, redirect_uri: REDIRECT, prompt: 'consent' }),
    )
    expect(location?.pathname).toBe('/consent')
    expect(location?.search).not.toContain('prompt=')
    const bad = await authorizeOnce(
      withPkce({ client_id: publicClient.client_id, redirect_uri: REDIRECT, prompt: 'sometimes' }),
    )
    expect(bad.location?.searchParams.get('error')).toBe('invalid_request')
    const badAge = await authorizeOnce(
      withPkce({ client_id: publicClient.client_id, redirect_uri: REDIRECT, max_age: '-1' }),
    )
    expect(badAge.location?.searchParams.get('error')).toBe('invalid_request')
  })
})
