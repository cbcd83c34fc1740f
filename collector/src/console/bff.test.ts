import { randomBytes } from 'node:crypto'
import { validateHeaderValue } from 'node:http'
import { DEFAULT_ORGANIZATION } from '@guard/shared'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { authenticateWithUsers, collectorForTest, userCaller } from '../test-support.ts'
import { createConsoleAuth, SESSION_COOKIE, safeReturnTo } from './bff.ts'
import { createSession, csrfTokenOf, hashSessionId } from './sessions.ts'

const KEY = randomBytes(32)
const ORIGIN = 'http://guard.test'

describe('the console BFF in front of the REST API', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_EVENT_STREAM_KEEPALIVE_MS: '200' })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, { ada: userCaller('ada', [DEFAULT_ORGANIZATION.id]) }),
      console: createConsoleAuth({
        sql: harness.ctx.sql,
        log: harness.ctx.log,
        sealKey: KEY,
        oidc: undefined,
        publicUrl: () => ORIGIN,
        sessionSeconds: 3600,
      }),
    })
  })
  afterAll(async () => {
    await app?.close()
    await harness?.close()
  })

  /** A session whose access token the test authentication resolves to the user ada. */
  const session = async (accessExpiresInMs = 600_000) =>
    (
      await createSession(harness.ctx.sql, KEY, {
        userId: 'ada',
        tokens: { accessToken: 'user:ada' },
        accessExpiresAt: new Date(Date.now() + accessExpiresInMs),
        lifetimeSeconds: 3600,
      })
    ).raw

  /** The console's sign-out form, posted from its own origin with the session's CSRF token. */
  const signOut = (raw: string) =>
    app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: {
        cookie: `${SESSION_COOKIE}=${raw}`,
        'content-type': 'application/x-www-form-urlencoded',
        origin: ORIGIN,
      },
      payload: `csrf=${csrfTokenOf(KEY, raw)}`,
    })

  const post = (raw: string, headers: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/api/domains',
      headers: { cookie: `${SESSION_COOKIE}=${raw}`, ...headers },
      payload: { url: 'https://console.example', name: 'From the console' },
    })

  it('forwards a cookie-carrying call to the same route with the session access token', async () => {
    const raw = await session()
    const response = await app.inject({
      method: 'GET',
      url: '/api/domains',
      headers: { cookie: `${SESSION_COOKIE}=${raw}` },
    })
    expect(response.statusCode).toBe(200)
    const stored = await harness.ctx.sql.query<{ tokens_sealed: string }>(
      'SELECT tokens_sealed FROM monitoring.console_sessions WHERE id_hash = $1',
      [hashSessionId(raw)],
    )
    // Tokens are sealed at rest and the cookie value itself is not stored.
    expect(stored.rows[0]!.tokens_sealed).not.toContain('user:ada')
    expect(JSON.stringify(stored.rows)).not.toContain(raw)
  })

  it('refuses a state-changing call without the CSRF token, with a wrong one, or from another origin', async () => {
    const raw = await session()
    const token = csrfTokenOf(KEY, raw)
    expect((await post(raw, {})).statusCode).toBe(403)
    expect((await post(raw, { 'x-csrf-token': csrfTokenOf(KEY, 'another session') })).statusCode).toBe(403)
    expect((await post(raw, { 'x-csrf-token': token, origin: 'http://evil.test' })).statusCode).toBe(403)
    expect((await post(raw, { 'x-csrf-token': token, 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403)
    const accepted = await post(raw, { 'x-csrf-token': token, origin: ORIGIN })
    expect(accepted.statusCode).toBe(201)
  })

  it('answers 401 and clears the cookie for an unknown or expired session', async () => {
    const unknown = await app.inject({
      method: 'GET',
      url: '/api/domains',
      headers: { cookie: `${SESSION_COOKIE}=${randomBytes(32).toString('base64url')}` },
    })
    expect(unknown.statusCode).toBe(401)
    expect(String(unknown.headers['set-cookie'])).toMatch(/guard_console=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/)
  })

  it('describes the session with its CSRF token, and ends it server-side on sign-out', async () => {
    const raw = await session()
    const cookie = `${SESSION_COOKIE}=${raw}`
    const described = await app.inject({ method: 'GET', url: '/auth/session', headers: { cookie } })
    expect(described.json()).toMatchObject({ signedIn: true, user: { id: 'ada' }, csrfToken: csrfTokenOf(KEY, raw) })
    expect(described.body).not.toContain('user:ada')
    const refused = await app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'csrf=wrong',
    })
    expect(refused.statusCode).toBe(403)
    const out = await signOut(raw)
    expect(out.statusCode).toBe(303)
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0')
    const after = await app.inject({ method: 'GET', url: '/api/domains', headers: { cookie } })
    expect(after.statusCode).toBe(401)
    expect((await app.inject({ method: 'GET', url: '/auth/session', headers: { cookie } })).json()).toEqual({
      signedIn: false,
    })
  })

  it('ends an open event stream at its next keep-alive once the session signs out', async () => {
    const raw = await session()
    const cookie = `${SESSION_COOKIE}=${raw}`
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const response = await fetch(`${address}/api/events/stream?maxSeconds=60`, { headers: { cookie } })
    expect(response.status).toBe(200)
    let ended = false
    const body = response.text().then((text) => {
      ended = true
      return text
    })
    // Several keep-alives go by while the session lives.
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(ended).toBe(false)
    const out = await signOut(raw)
    expect(out.statusCode).toBe(303)
    const outcome = await Promise.race([
      body.then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 5000)),
    ])
    expect(outcome).toBe('ended')
    expect(await body).toContain(': keep-alive')
  })

  it('without an identity, sign-in explains itself instead of failing', async () => {
    const response = await app.inject({ method: 'GET', url: '/auth/login?returnTo=/domains' })
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe('/?signin=unconfigured')
  })

  it('answers any sign-out body, callback query or return path with a 3xx or 4xx, never a 5xx', async () => {
    const raw = await session()
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), async (body, query) => {
        const logout = await app.inject({
          method: 'POST',
          url: '/auth/logout',
          headers: { cookie: `${SESSION_COOKIE}=${raw}`, 'content-type': 'application/x-www-form-urlencoded' },
          payload: body,
        })
        expect(logout.statusCode).toBeLessThan(500)
        const callback = await app.inject({
          method: 'GET',
          url: `/auth/callback?code=${encodeURIComponent(query)}&state=${encodeURIComponent(body)}`,
        })
        expect(callback.statusCode).toBeLessThan(500)
        const login = await app.inject({ method: 'GET', url: `/auth/login?returnTo=${encodeURIComponent(query)}` })
        expect(login.statusCode).toBeLessThan(500)
      }),
      { numRuns: 40 },
    )
    // None of that signed the session out: a sign-out needs its CSRF token.
    expect(
      (await app.inject({ method: 'GET', url: '/api/domains', headers: { cookie: `${SESSION_COOKIE}=${raw}` } }))
        .statusCode,
    ).toBe(200)
  })

  it('answers a failed sign-in with a page no other site can frame and that runs nothing', async () => {
    const failed = await app.inject({ method: 'GET', url: '/auth/callback?code=c&state=s' })
    expect(failed.statusCode).toBe(400)
    expect(failed.headers['content-type']).toMatch(/^text\/html/)
    expect(failed.body).toContain('Sign-in failed')
    const policy = String(failed.headers['content-security-policy'])
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).toContain("default-src 'none'")
    expect(failed.headers['x-frame-options']).toBe('DENY')
    expect(failed.headers['x-content-type-options']).toBe('nosniff')
    expect(failed.headers['referrer-policy']).toBe('no-referrer')
  })

  it('only ever returns to a path of the console', () => {
    expect(safeReturnTo('/domains/1?range=7d')).toBe('/domains/1?range=7d')
    for (const bad of ['//evil.test', 'https://evil.test', '/\\evil.test', '/auth/logout', 'domains', 42, '/a\r\nb']) {
      expect(safeReturnTo(bad)).toBe('/')
    }
  })

  it('a return path beyond Latin-1 is percent-encoded, so the redirect back never fails', () => {
    // What /auth/login?returnTo=/caf%C3%A9%E2%9C%93 hands over once decoded.
    expect(safeReturnTo('/caf\u00e9\u2713')).toBe('/caf%C3%A9%E2%9C%93')
    expect(safeReturnTo('/caf%C3%A9%E2%9C%93?q=a b')).toBe('/caf%C3%A9%E2%9C%93?q=a%20b')
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (path) => {
        const location = safeReturnTo(`/${path}`)
        expect(() => validateHeaderValue('location', location)).not.toThrow()
        expect(location).toMatch(/^\/[\x21-\x7e]*$/)
      }),
    )
  })
})
