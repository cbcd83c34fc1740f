import { createHash } from 'node:crypto'
import { DEFAULT_ORGANIZATION } from '@guard/shared'
import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../../app.ts'
import {
  collectorForTest,
  type FakeAnswer,
  type FakeRequest,
  fakePlatform,
  integrationTablesText,
  userCaller,
} from '../../test-support.ts'
import { openAccount } from '../accounts.ts'
import { providerApi } from '../session.ts'
import { webhostC } from './provider.ts'

const CLIENT_ID = 'guard-at-webhost-c'
const REDIRECT = 'https://guard.example/api/webhost-c/callback'

/** webhost-c as Guard sees it: authorization codes bound to PKCE, rotating refresh tokens, a projects API. */
function fakeWebhostC() {
  const state = {
    codes: new Map<string, { challenge: string; redirectUri: string; used: boolean }>(),
    refreshTokens: new Set<string>(),
    accessTokens: new Set<string>(),
    issued: [] as string[],
    expiresIn: 3600,
    grants: [] as string[],
    down: false,
  }
  const tokens = () => {
    const n = state.issued.length + 1
    const access = `webhost-c-access-${n}-xxxxxxxxxxxx`
    const refresh = `webhost-c-refresh-yyyyyyyyyyyy-${String(n).padStart(4, '0')}`
    state.issued.push(access, refresh)
    state.accessTokens.add(access)
    state.refreshTokens.add(refresh)
    return {
      status: 200,
      json: { token_type: 'Bearer', access_token: access, refresh_token: refresh, expires_in: state.expiresIn },
    }
  }
  const answer = (request: FakeRequest): FakeAnswer => {
    if (state.down) return { status: 502, json: { error: 'bad_gateway' } }
    if (request.method === 'POST' && request.path === '/oauth/token') {
      const form = request.body
      state.grants.push(form.grant_type!)
      if (form.client_id !== CLIENT_ID) return { status: 401, json: { error: 'invalid_client' } }
      if (form.grant_type === 'authorization_code') {
        const code = state.codes.get(form.code!)
        const verified =
          createHash('sha256')
            .update(form.code_verifier ?? '')
            .digest('base64url') === code?.challenge
        if (!code || code.used || !verified || code.redirectUri !== form.redirect_uri) {
          return { status: 400, json: { error: 'invalid_grant' } }
        }
        code.used = true
        return tokens()
      }
      if (form.grant_type === 'refresh_token') {
        // Rotation: a refresh token works once.
        if (!state.refreshTokens.delete(form.refresh_token!)) return { status: 400, json: { error: 'invalid_grant' } }
        return tokens()
      }
      return { status: 400, json: { error: 'unsupported_grant_type' } }
    }
    const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '')
    if (!state.accessTokens.has(token))
      return { status: 401, json: { error: { code: 'forbidden', message: 'expired token' } } }
    if (request.path === '/v2/user')
      return { status: 200, json: { user: { id: 'user-1', username: 'ann', email: 'ann@x.example' } } }
    if (request.path === '/v9/projects') {
      if (request.query.get('until') === '1700000000000') {
        return {
          status: 200,
          json: {
            projects: [{ id: 'prj_3', name: 'docs', targets: { production: { url: 'docs-abc123.webhost-c.app' } } }],
            pagination: { next: null },
          },
        }
      }
      return {
        status: 200,
        json: {
          projects: [
            {
              id: 'prj_1',
              name: 'shop',
              targets: { production: { alias: ['shop.example.com', 'shop.webhost-c.app'] } },
            },
            { id: 'prj_2', name: 'draft', targets: null },
          ],
          pagination: { next: 1700000000000 },
        },
      }
    }
    return { status: 404, json: {} }
  }
  /** The user approving at webhost-c: the authorization request is checked and a code issued for it. */
  const approve = (authorizationUrl: string) => {
    const url = new URL(authorizationUrl)
    const params = Object.fromEntries(url.searchParams)
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT,
      code_challenge_method: 'S256',
      scope: expect.stringContaining('offline_access'),
    })
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const code = `code-${state.codes.size + 1}`
    state.codes.set(code, { challenge: params.code_challenge!, redirectUri: params.redirect_uri!, used: false })
    return { code, state: params.state! }
  }
  return { state, answer, approve }
}

describe('webhost-c: link through authorization code with PKCE, list, monitor', () => {
  const platform = fakeWebhostC()
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })
  const start = async () => {
    const response = await app.inject({ method: 'POST', url: '/api/webhost-c/accounts', headers: headers() })
    expect(response.statusCode).toBe(200)
    return response.json().data as { authorizationUrl: string; redirectUri: string; expiresAt: string }
  }
  const callback = (query: Record<string, string>) =>
    app.inject({ method: 'GET', url: `/api/webhost-c/callback?${new URLSearchParams(query)}` })
  const accountCount = async () =>
    (await harness.ctx.sql.query('SELECT id FROM monitoring.integration_accounts')).rows.length
  const linkAccount = async () => {
    const approved = platform.approve((await start()).authorizationUrl)
    const response = await callback(approved)
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data as { id: string }
  }

  beforeAll(async () => {
    fake = await fakePlatform(platform.answer)
    harness = await collectorForTest({
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_WEBHOST_C_AUTHORIZE_URL: `${fake.url}/oauth/authorize`,
      GUARD_WEBHOST_C_TOKEN_URL: `${fake.url}/oauth/token`,
      GUARD_WEBHOST_C_API_URL: fake.url,
      GUARD_WEBHOST_C_CLIENT_ID: CLIENT_ID,
      GUARD_WEBHOST_C_REDIRECT_URL: REDIRECT,
    })
    app = await buildCollectorApp(harness.ctx)
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
    await fake.close()
  })
  beforeEach(async () => {
    platform.state.expiresIn = 3600
    platform.state.down = false
    await harness.ctx.sql.query('DELETE FROM monitoring.integration_accounts')
  })

  it('answers an authorization URL with a PKCE S256 challenge and keeps the state and verifier secret', async () => {
    const started = await start()
    expect(started.redirectUri).toBe(REDIRECT)
    expect(new Date(started.expiresAt).getTime()).toBeGreaterThan(Date.now())
    const { state } = platform.approve(started.authorizationUrl)
    const stored = await integrationTablesText(harness.ctx)
    expect(stored).not.toContain(state)
  })

  it('completes the link on the callback, storing the refresh token sealed and returning none', async () => {
    const approved = platform.approve((await start()).authorizationUrl)
    const response = await callback(approved)
    expect(response.statusCode).toBe(200)
    const account = response.json().data
    expect(account).toMatchObject({
      name: 'ann',
      username: 'ann',
      userId: 'user-1',
      secretHint: expect.stringMatching(/^••••\d{4}$/),
      monitors: 0,
    })
    const stored = await integrationTablesText(harness.ctx)
    for (const token of platform.state.issued) {
      expect(stored).not.toContain(token)
      expect(response.body).not.toContain(token)
    }
    const list = await app.inject({ method: 'GET', url: '/api/webhost-c/accounts', headers: headers() })
    expect(list.json().data).toEqual([account])
    for (const token of platform.state.issued) expect(list.body).not.toContain(token)
  })

  it('refuses a replayed callback: the state is spent by the first', async () => {
    const approved = platform.approve((await start()).authorizationUrl)
    expect((await callback(approved)).statusCode).toBe(200)
    const replay = await callback(approved)
    expect(replay.statusCode).toBe(400)
    expect(replay.json().message).toMatch(/state: unknown or already used/)
    expect(await accountCount()).toBe(1)
  })

  it('refuses a state it did not issue, a missing state and a missing code, linking nothing', async () => {
    const approved = platform.approve((await start()).authorizationUrl)
    const forged = await callback({ code: approved.code, state: `${approved.state}x` })
    expect(forged.statusCode).toBe(400)
    expect(forged.json().message).toMatch(/state: unknown or already used/)
    expect((await callback({ code: approved.code })).statusCode).toBe(400)
    expect((await callback({ state: approved.state })).json().message).toMatch(/code: missing/)
    // That state was spent by the code-less callback.
    expect((await callback(approved)).statusCode).toBe(400)
    expect(await accountCount()).toBe(0)
  })

  it('refuses error callbacks and spends their state', async () => {
    const approved = platform.approve((await start()).authorizationUrl)
    const denied = await callback({ state: approved.state, error: 'access_denied', error_description: '<script>' })
    expect(denied.statusCode).toBe(400)
    expect(denied.json().message).toBe('webhost-c did not authorize the link (access_denied); nothing was stored')
    expect((await callback(approved)).statusCode).toBe(400)
    expect(await accountCount()).toBe(0)
  })

  it('refuses an expired state and a code webhost-c rejects', async () => {
    const late = platform.approve((await start()).authorizationUrl)
    await harness.ctx.sql.query(
      "UPDATE monitoring.integration_authorizations SET expires_at = now() - interval '1 second' WHERE used_at IS NULL",
    )
    expect((await callback(late)).json().message).toMatch(/state: expired/)
    const approved = platform.approve((await start()).authorizationUrl)
    const wrongCode = await callback({ ...approved, code: 'code-that-was-never-issued' })
    expect(wrongCode.statusCode).toBe(400)
    expect(wrongCode.json()).toMatchObject({
      error: 'PROVIDER_CREDENTIALS_REJECTED',
      message: expect.stringMatching(/invalid_grant/),
    })
    expect(await accountCount()).toBe(0)
  })

  it('answers any callback query it did not issue with a 4xx and links nothing', async () => {
    const pending = (await harness.ctx.sql.query('SELECT * FROM monitoring.integration_authorizations')).rows.length
    const field = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ minLength: 5000, maxLength: 5100 }))
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          { state: field, code: field, error: field, error_description: field, iss: field, other: field },
          {
            requiredKeys: [],
          },
        ),
        async (query) => {
          const response = await app.inject({ method: 'GET', url: '/api/webhost-c/callback', query })
          expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400)
          expect(response.statusCode).toBeLessThan(500)
          expect(response.json().message).toEqual(expect.any(String))
        },
      ),
      { numRuns: 60 },
    )
    expect(await accountCount()).toBe(0)
    expect((await harness.ctx.sql.query('SELECT * FROM monitoring.integration_authorizations')).rows).toHaveLength(
      pending,
    )
  })

  it('answers 502 when webhost-c is down during the callback or a listing, changing nothing', async () => {
    const approved = platform.approve((await start()).authorizationUrl)
    platform.state.down = true
    const callbackDown = await callback(approved)
    expect(callbackDown.statusCode).toBe(502)
    expect(callbackDown.json()).toEqual({
      success: false,
      error: 'BAD_GATEWAY',
      message: 'webhost-c answered 502; nothing was changed',
    })
    expect(await accountCount()).toBe(0)

    platform.state.down = false
    const account = await linkAccount()
    const before = await integrationTablesText(harness.ctx)
    platform.state.down = true
    const listing = await app.inject({
      method: 'GET',
      url: `/api/webhost-c/accounts/${account.id}/projects`,
      headers: headers(),
    })
    expect(listing.statusCode).toBe(502)
    expect(await integrationTablesText(harness.ctx)).toBe(before)
  })

  it('answers 503 when the operator has configured no webhost-c client', async () => {
    const unconfigured = await buildCollectorApp({
      ...harness.ctx,
      env: { ...harness.ctx.env, GUARD_WEBHOST_C_CLIENT_ID: undefined },
    })
    const response = await unconfigured.inject({ method: 'POST', url: '/api/webhost-c/accounts', headers: headers() })
    await unconfigured.close()
    expect(response.statusCode).toBe(503)
    expect(response.json().message).toMatch(/GUARD_WEBHOST_C_CLIENT_ID/)
  })

  it('lists projects with production URLs, refreshing an expired token and storing the rotated refresh token sealed', async () => {
    platform.state.expiresIn = 1
    const account = await linkAccount()
    const hintBefore = (await app.inject({ method: 'GET', url: '/api/webhost-c/accounts', headers: headers() })).json()
      .data[0].secretHint
    platform.state.grants.length = 0
    const response = await app.inject({
      method: 'GET',
      url: `/api/webhost-c/accounts/${account.id}/projects`,
      headers: headers(),
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(platform.state.grants).toEqual(['refresh_token'])
    const items = response.json().data as Array<{ id: string; name: string; target: unknown }>
    expect(items.map(({ name, target }) => ({ name, target }))).toEqual([
      { name: 'shop', target: { type: 'domain', url: 'https://shop.example.com' } },
      { name: 'docs', target: { type: 'domain', url: 'https://docs-abc123.webhost-c.app' } },
    ])
    // The rotated refresh token was stored: the next renewal uses it and webhost-c accepts it.
    const hintAfter = (await app.inject({ method: 'GET', url: '/api/webhost-c/accounts', headers: headers() })).json()
      .data[0].secretHint
    expect(hintAfter).not.toBe(hintBefore)
    platform.state.accessTokens.clear()
    const again = await app.inject({
      method: 'GET',
      url: `/api/webhost-c/accounts/${account.id}/projects`,
      headers: headers(),
    })
    expect(again.statusCode, again.body).toBe(200)
    const stored = await integrationTablesText(harness.ctx)
    for (const token of platform.state.issued) expect(stored).not.toContain(token)

    const monitored = await app.inject({
      method: 'POST',
      url: `/api/webhost-c/accounts/${account.id}/projects/${items[0]!.id}/monitor`,
      headers: headers(),
      payload: { checkInterval: 120 },
    })
    expect(monitored.statusCode).toBe(201)
    expect(monitored.json().data.monitor.domain).toMatchObject({ url: 'https://shop.example.com', checkInterval: 120 })

    // A revoked link (the refresh token no longer works) asks to link again.
    platform.state.refreshTokens.clear()
    platform.state.accessTokens.clear()
    const revoked = await app.inject({
      method: 'GET',
      url: `/api/webhost-c/accounts/${account.id}/projects`,
      headers: headers(),
    })
    expect(revoked.statusCode).toBe(400)
    expect(revoked.json().message).toMatch(/link the account again \(invalid_grant\)/)
  })

  it('uses the token another replica renewed when the refresh token it read was spent meanwhile', async () => {
    platform.state.expiresIn = 1
    const account = await linkAccount()
    const caller = userCaller('ann', [DEFAULT_ORGANIZATION.id])
    const stale = await openAccount(harness.ctx, caller, 'webhost-c', account.id)
    // The other replica: renews with the stored refresh token and stores the rotated one.
    platform.state.expiresIn = 3600
    const elsewhere = providerApi(
      harness.ctx,
      webhostC,
      await openAccount(harness.ctx, caller, 'webhost-c', account.id),
      {
        persist: true,
        linking: false,
      },
    )
    await elsewhere.get(`${fake.url}/v2/user`, 'the user')
    platform.state.grants.length = 0

    const api = providerApi(harness.ctx, webhostC, stale, { persist: true, linking: false })
    expect(await api.get(`${fake.url}/v2/user`, 'the user')).toMatchObject({ user: { id: 'user-1' } })
    // This request's refresh was refused (spent); it took the stored renewal instead of failing.
    expect(platform.state.grants).toEqual(['refresh_token'])
  })
})
