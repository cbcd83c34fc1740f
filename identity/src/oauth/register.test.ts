import { createLogger } from '@guard/shared'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildIdentityApp } from '../app.ts'
import { getClient } from '../services/clients/list.ts'
import { pruneUnusedClients } from '../services/clients/prune-unused.ts'
import {
  authorizeUrl,
  HttpBrowser,
  pkcePair,
  postForm,
  startTestIdentity,
  TEST_PASSWORD,
  type TestIdentity,
} from './testing.ts'

let identity: TestIdentity
beforeAll(async () => {
  identity = await startTestIdentity()
})
afterAll(() => identity?.close())

const register = async (metadata: unknown) => {
  const response = await fetch(`${identity.url}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  })
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  }
}

const clientExists = async (clientId: string) =>
  (await identity.sql.query('SELECT 1 FROM identity.clients WHERE id = $1', [clientId])).rows.length === 1

describe('dynamic client registration (RFC 7591)', () => {
  it('a public client registers with https and loopback redirect URIs, without a secret', async () => {
    const { status, headers, body } = await register({
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback', 'http://localhost:33418/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'read write',
      client_uri: 'https://claude.ai',
    })
    expect(status).toBe(201)
    expect(headers.get('cache-control')).toBe('no-store')
    expect(body).toEqual({
      client_id: expect.any(String),
      client_id_issued_at: expect.any(Number),
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback', 'http://localhost:33418/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'read write',
    })
    const { rows } = await identity.sql.query<{ secret_hash: string | null; first_party: boolean }>(
      'SELECT secret_hash, first_party FROM identity.clients WHERE id = $1',
      [body.client_id],
    )
    expect(rows[0]).toEqual({ secret_hash: null, first_party: false })
    // The operator sees it as self-registered and not yet used.
    expect(await getClient(identity.sql, String(body.client_id))).toMatchObject({
      public: true,
      registered_dynamically: true,
      last_token_at: null,
    })
  })

  it('a registered client must use PKCE S256, and its loopback redirect matches on any port', async () => {
    const { body } = await register({ redirect_uris: ['http://127.0.0.1:1/callback'], scope: 'read' })
    const clientId = String(body.client_id)
    const base = { client_id: clientId, redirect_uri: 'http://127.0.0.1:55123/callback', scope: 'read' }
    const browser = new HttpBrowser()
    const withoutPkce = await browser.request(authorizeUrl(identity, base))
    const refused = new URL(withoutPkce.headers.get('location') ?? '')
    expect(refused.searchParams.get('error')).toBe('invalid_request')
    expect(refused.searchParams.get('error_description')).toMatch(/PKCE/)
    const pkce = pkcePair()
    const callback = await browser.authorize(
      authorizeUrl(identity, { ...base, code_challenge: pkce.challenge, code_challenge_method: 'S256' }),
      { email: identity.user.email, password: TEST_PASSWORD },
    )
    const tokens = await postForm(`${identity.url}/api/oauth/token`, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: base.redirect_uri,
      code_verifier: pkce.verifier,
      client_id: clientId,
    })
    expect(tokens.status).toBe(200)
    expect(tokens.body.scope).toBe('read')
  })

  it('the name defaults to the redirect host, and the consent page says the name is unverified', async () => {
    const { body } = await register({ redirect_uris: ['https://assistant.example/cb'], scope: 'read' })
    expect(body.client_name).toBe('assistant.example')
    const browser = new HttpBrowser()
    const pkce = pkcePair()
    const params = {
      client_id: String(body.client_id),
      redirect_uri: 'https://assistant.example/cb',
      scope: 'read',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }
    // Sign in through the pages, deny at consent, then look at the consent page itself.
    await browser.authorize(
      authorizeUrl(identity, params),
      { email: identity.user.email, password: TEST_PASSWORD },
      'deny',
    )
    const consent = await browser.request(
      `${identity.url}/consent?${new URLSearchParams({ response_type: 'code', ...params })}`,
    )
    const page = await consent.text()
    expect(page).toContain('registered itself')
    expect(page).toContain('<strong>assistant.example</strong>')
  })

  it.each([
    ['http on a non-loopback host', ['http://example.org/callback']],
    ['a fragment', ['https://example.org/callback#frag']],
    ['javascript:', ['javascript:alert(1)']],
    ['a custom scheme that is not reverse-domain', ['myapp:/callback']],
    ['a relative URL', ['/callback']],
    ['no redirect URI', []],
    ['one bad URI among good ones', ['https://example.org/cb', 'data:text/html,hi']],
    ['a user name and password', ['https://user:pass@example.org/cb']],
    ['a user name alone', ['https://user@example.org/cb']],
    ['credentials on a loopback host', ['http://user:pass@127.0.0.1:8080/cb']],
  ])('a redirect URI with %s is invalid_redirect_uri', async (_case, redirectUris) => {
    const { status, body } = await register({ redirect_uris: redirectUris })
    expect(status).toBe(400)
    expect(body.error).toBe('invalid_redirect_uri')
    expect(body.error_description).toEqual(expect.any(String))
  })

  it('a reverse-domain private-use scheme (RFC 8252 §7.1) is accepted', async () => {
    const { status } = await register({ redirect_uris: ['com.example.assistant:/oauth/callback'] })
    expect(status).toBe(201)
  })

  it.each([
    ['a confidential client', { token_endpoint_auth_method: 'client_secret_basic' }],
    ['the client_credentials grant', { grant_types: ['client_credentials'] }],
    ['refresh_token without authorization_code', { grant_types: ['refresh_token'] }],
    ['the implicit response type', { response_types: ['token'] }],
    ['the admin scope', { scope: 'read admin' }],
    ['the first-party scope api-keys:write', { scope: 'read write api-keys:write' }],
    ['an unknown scope', { scope: 'read delete_everything' }],
    ['a name with control characters', { client_name: 'Claude\u0007' }],
    ['a name of 101 characters', { client_name: 'x'.repeat(101) }],
    ['a name that is not a string', { client_name: 42 }],
  ])('registering %s is invalid_client_metadata', async (_case, metadata) => {
    const { status, body } = await register({ redirect_uris: ['https://example.org/cb'], ...metadata })
    expect(status).toBe(400)
    expect(body.error).toBe('invalid_client_metadata')
  })

  it('registrations are rate limited per client IP', async () => {
    const log = createLogger({ name: 'register-test', level: 'silent' })
    const app = await buildIdentityApp({ log, oauth: { ...identity.ctx, registrationLimit: 2 } })
    const from = (remoteAddress: string) =>
      app.inject({
        method: 'POST',
        url: '/api/oauth/register',
        remoteAddress,
        payload: { redirect_uris: ['https://example.org/cb'] },
      })
    expect((await from('192.0.2.10')).statusCode).toBe(201)
    expect((await from('192.0.2.10')).statusCode).toBe(201)
    const refused = await from('192.0.2.10')
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['ratelimit-policy']).toBe('"registration";q=2;w=3600')
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' })
    expect((await from('192.0.2.11')).statusCode).toBe(201)
    await app.close()
  })
})

describe('registration bad input', () => {
  const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { minLength: 1 }))
  const valid = { redirect_uris: ['https://example.org/cb'], client_name: 'Fuzz', scope: 'read' }
  const badRedirect = fc.oneof(
    fc.constantFrom('', 'http://example.org/cb', 'https://x.org/cb#f', 'file:///etc/passwd', 'noscheme', 'ftp://x.org'),
    notAString,
  )
  const bodies = fc.oneof(
    badRedirect.map((uri) => ({ ...valid, redirect_uris: [uri] })),
    fc.oneof(notAString, fc.string()).map((value) => ({ ...valid, redirect_uris: value })),
    fc.constantFrom('client_secret_post', 'private_key_jwt', '').map((method) => ({
      ...valid,
      token_endpoint_auth_method: method,
    })),
    fc
      .oneof(fc.constant(['implicit']), fc.constant([]), notAString)
      .map((grants) => ({ ...valid, grant_types: grants })),
    fc
      .oneof(fc.constantFrom('admin', 'read admin', 'openid superuser'), notAString)
      .map((scope) => ({ ...valid, scope })),
    fc.oneof(fc.constant('x'.repeat(101)), notAString).map((name) => ({ ...valid, client_name: name })),
    fc.oneof(fc.string(), fc.integer(), fc.array(fc.jsonValue(), { maxLength: 3 }), fc.constant(null)),
  )

  it('every invalid registration is a 400 with an RFC 7591 error code and stores nothing', async () => {
    const log = createLogger({ name: 'register-fuzz', level: 'silent' })
    const app = await buildIdentityApp({ log, oauth: identity.ctx })
    const count = async () =>
      (await identity.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM identity.clients')).rows[0]?.n
    const before = await count()
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/oauth/register',
          payload: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        })
        expect(response.statusCode).toBe(400)
        expect(['invalid_client_metadata', 'invalid_redirect_uri']).toContain(response.json().error)
      }),
      { numRuns: 60 },
    )
    expect(await count()).toBe(before)
    await app.close()
  })
})

describe('expiry of unused registrations', () => {
  const age = (clientId: string, column: 'created_at' | 'last_token_at', hours: number) =>
    identity.sql.query(`UPDATE identity.clients SET ${column} = now() - make_interval(hours => $2) WHERE id = $1`, [
      clientId,
      hours,
    ])
  const registered = async () => String((await register({ redirect_uris: ['https://example.org/cb'] })).body.client_id)

  it('a registration with no token issued within 24 hours is deleted; a younger or used one stays', async () => {
    const abandoned = await registered()
    const young = await registered()
    const used = await registered()
    await age(abandoned, 'created_at', 25)
    await age(young, 'created_at', 23)
    await age(used, 'created_at', 25)
    await age(used, 'last_token_at', 24)
    const adminMade = await identity.client({ isPublic: true })
    await age(adminMade.client_id, 'created_at', 24 * 400)

    await pruneUnusedClients(identity.sql)
    expect(await clientExists(abandoned)).toBe(false)
    expect(await clientExists(young)).toBe(true)
    expect(await clientExists(used)).toBe(true)
    // Only self-registered clients expire: an operator's stays whatever its age.
    expect(await clientExists(adminMade.client_id)).toBe(true)
  })

  it('a registration idle longer than a refresh token lives is deleted', async () => {
    const idle = await registered()
    await age(idle, 'created_at', 24 * 60)
    await age(idle, 'last_token_at', 24 * 31)
    await pruneUnusedClients(identity.sql)
    expect(await clientExists(idle)).toBe(false)
  })

  it('issuing a token marks the registration used', async () => {
    const { body } = await register({ redirect_uris: ['http://127.0.0.1:1/callback'], scope: 'read' })
    const clientId = String(body.client_id)
    const pkce = pkcePair()
    const redirectUri = 'http://127.0.0.1:1/callback'
    const callback = await new HttpBrowser().authorize(
      authorizeUrl(identity, {
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: 'read',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      }),
      { email: identity.user.email, password: TEST_PASSWORD },
    )
    await postForm(`${identity.url}/api/oauth/token`, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: redirectUri,
      code_verifier: pkce.verifier,
      client_id: clientId,
    })
    await age(clientId, 'created_at', 48)
    await pruneUnusedClients(identity.sql)
    expect(await clientExists(clientId)).toBe(true)
  })
})
