import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedClient } from '../services/clients/create.ts'
import {
  authorizeUrl,
  HttpBrowser,
  obtainTokens,
  pkcePair,
  postForm,
  startTestIdentity,
  TEST_PASSWORD,
  type TestIdentity,
} from './testing.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
let identity: TestIdentity
let confidential: CreatedClient
let other: CreatedClient
let publicClient: CreatedClient
let noPkce: CreatedClient

beforeAll(async () => {
  identity = await startTestIdentity()
  confidential = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
  other = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
  publicClient = await identity.client({ isPublic: true, redirectUris: [REDIRECT], firstParty: true })
  noPkce = await identity.client({ redirectUris: [REDIRECT], firstParty: true, requirePkce: false })
})
afterAll(() => identity?.close())

const tokenUrl = () => `${identity.url}/api/oauth/token`

async function codeFor(client: CreatedClient, extra: Record<string, string> = {}) {
  const callback = await new HttpBrowser().authorize(
    authorizeUrl(identity, { client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid email', ...extra }),
    { email: identity.user.email, password: TEST_PASSWORD },
  )
  const code = callback.searchParams.get('code')
  if (!code) throw new Error(`no code: ${callback.href}`)
  return code
}

const secretOf = (client: CreatedClient) => ({
  client_id: client.client_id,
  ...(client.client_secret ? { client_secret: client.client_secret } : {}),
})

async function exchange(client: CreatedClient, code: string, verifier: string | undefined) {
  return postForm(tokenUrl(), {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    ...secretOf(client),
    ...(verifier ? { code_verifier: verifier } : {}),
  })
}

const tokensFor = (client: CreatedClient, scope = 'openid email') => obtainTokens(identity, client, { scope })

const refresh = (client: CreatedClient, refreshToken: string, extra: Record<string, string> = {}) =>
  postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: refreshToken, ...secretOf(client), ...extra })

const userinfo = (accessToken: string) =>
  fetch(`${identity.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })

describe('token endpoint', () => {
  it('answers with Cache-Control: no-store', async () => {
    const pkce = pkcePair()
    const code = await codeFor(confidential, { code_challenge: pkce.challenge, code_challenge_method: 'S256' })
    const response = await exchange(confidential, code, pkce.verifier)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it('code reuse is refused and revokes the tokens the code issued', async () => {
    const pkce = pkcePair()
    const code = await codeFor(confidential, { code_challenge: pkce.challenge, code_challenge_method: 'S256' })
    const first = await exchange(confidential, code, pkce.verifier)
    expect(first.status).toBe(200)
    const replay = await exchange(confidential, code, pkce.verifier)
    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe('invalid_grant')
    expect((await userinfo(first.body.access_token as string)).status).toBe(401)
    expect((await refresh(confidential, first.body.refresh_token as string)).body.error).toBe('invalid_grant')
  })

  it('redirect mismatch at the token endpoint is invalid_grant', async () => {
    const pkce = pkcePair()
    const code = await codeFor(confidential, { code_challenge: pkce.challenge, code_challenge_method: 'S256' })
    const response = await postForm(tokenUrl(), {
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'http://127.0.0.1:9/other',
      code_verifier: pkce.verifier,
      ...secretOf(confidential),
    })
    expect(response.body.error).toBe('invalid_grant')
  })

  it('PKCE wrong verifier is invalid_grant', async () => {
    const pkce = pkcePair()
    const code = await codeFor(confidential, { code_challenge: pkce.challenge, code_challenge_method: 'S256' })
    const response = await exchange(confidential, code, pkcePair().verifier)
    expect(response.body).toMatchObject({ error: 'invalid_grant', status: 400, code: 'VALIDATION_ERROR' })
  })

  it('PKCE missing verifier is invalid_grant when the request had a challenge', async () => {
    const pkce = pkcePair()
    const code = await codeFor(confidential, { code_challenge: pkce.challenge, code_challenge_method: 'S256' })
    expect((await exchange(confidential, code, undefined)).body.error).toBe('invalid_grant')
  })

  it('PKCE downgrade: a verifier without a challenge is refused', async () => {
    const code = await codeFor(noPkce)
    expect((await exchange(noPkce, code, pkcePair().verifier)).body.error).toBe('invalid_grant')
  })

  it('a confidential client with requirePkce false may omit PKCE', async () => {
    const code = await codeFor(noPkce)
    expect((await exchange(noPkce, code, undefined)).status).toBe(200)
  })

  it('unknown form field is invalid_request, as application/json with problem and RFC 6749 fields', async () => {
    const response = await postForm(tokenUrl(), {
      grant_type: 'refresh_token',
      refresh_token: 'x',
      foo: 'bar',
      ...secretOf(confidential),
    })
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.body).toMatchObject({
      error: 'invalid_request',
      error_description: expect.any(String),
      type: expect.any(String),
      title: 'Bad Request',
      status: 400,
      detail: expect.any(String),
      code: 'VALIDATION_ERROR',
      hint: expect.stringContaining('openapi.json'),
    })
  })

  it('every 400 of the token endpoint carries code, detail and hint beside error and error_description', async () => {
    const answers = await Promise.all([
      postForm(tokenUrl(), { grant_type: 'password', ...secretOf(confidential) }),
      postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: 'unknown', ...secretOf(confidential) }),
      postForm(tokenUrl(), { grant_type: 'authorization_code', code: 'unknown', ...secretOf(confidential) }),
    ])
    for (const { status, body } of answers) {
      expect(status).toBe(400)
      expect(body).toMatchObject({
        code: 'VALIDATION_ERROR',
        detail: expect.any(String),
        hint: expect.any(String),
        error: expect.any(String),
        error_description: body.detail,
      })
    }
  })

  it('a repeated form field is invalid_request', async () => {
    const response = await fetch(tokenUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&grant_type=refresh_token',
    })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request')
  })

  it('a JSON body is invalid_request', async () => {
    const response = await fetch(tokenUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token' }),
    })
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request')
  })

  it('an unsupported grant_type is unsupported_grant_type', async () => {
    const response = await postForm(tokenUrl(), { grant_type: 'password', ...secretOf(confidential) })
    expect(response.body.error).toBe('unsupported_grant_type')
  })

  it('client authentication failure is 401 invalid_client, by post and by basic', async () => {
    const byPost = await postForm(tokenUrl(), {
      grant_type: 'refresh_token',
      refresh_token: 'x',
      client_id: confidential.client_id,
      client_secret: 'wrong',
    })
    expect(byPost.status).toBe(401)
    expect(byPost.body).toMatchObject({ error: 'invalid_client', code: 'UNAUTHORIZED' })
    const basic = Buffer.from(`${confidential.client_id}:wrong`).toString('base64')
    const byBasic = await postForm(
      tokenUrl(),
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { authorization: `Basic ${basic}` },
    )
    expect(byBasic.status).toBe(401)
    expect(byBasic.headers.get('www-authenticate')).toMatch(/^Basic/)
    const missing = await postForm(tokenUrl(), {
      grant_type: 'refresh_token',
      refresh_token: 'x',
      client_id: confidential.client_id,
    })
    expect(missing.status).toBe(401)
  })

  it('client_secret_basic authenticates a confidential client', async () => {
    const tokens = await tokensFor(confidential)
    const basic = Buffer.from(`${confidential.client_id}:${confidential.client_secret}`).toString('base64')
    const response = await postForm(
      tokenUrl(),
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      { authorization: `Basic ${basic}` },
    )
    expect(response.status).toBe(200)
  })

  it('refresh reuse revokes the family', async () => {
    const tokens = await tokensFor(confidential)
    const rotated = await refresh(confidential, tokens.refresh_token)
    expect(rotated.status).toBe(200)
    expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token)
    const reuse = await refresh(confidential, tokens.refresh_token)
    expect(reuse.body.error).toBe('invalid_grant')
    // The family is gone: the newest refresh token and its access token stop working too.
    expect((await refresh(confidential, rotated.body.refresh_token as string)).body.error).toBe('invalid_grant')
    expect((await userinfo(rotated.body.access_token as string)).status).toBe(401)
  })

  it('cross-client refresh is refused', async () => {
    const tokens = await tokensFor(confidential)
    expect((await refresh(other, tokens.refresh_token)).body.error).toBe('invalid_grant')
    // The owner's copy still works: another client presenting it proves nothing against it.
    expect((await refresh(confidential, tokens.refresh_token)).status).toBe(200)
  })

  it('scope widening on refresh is invalid_scope; narrowing is allowed', async () => {
    const tokens = await tokensFor(confidential, 'openid email')
    expect((await refresh(confidential, tokens.refresh_token, { scope: 'openid email profile' })).body.error).toBe(
      'invalid_scope',
    )
    const narrowed = await refresh(confidential, tokens.refresh_token, { scope: 'openid' })
    expect(narrowed.body.scope).toBe('openid')
    // The new refresh token keeps the grant's scopes, so a later refresh may return to them.
    const back = await refresh(confidential, narrowed.body.refresh_token as string, { scope: 'openid email' })
    expect(back.body.scope).toBe('openid email')
  })

  it('a public client authenticates with client_id alone and cannot send a secret', async () => {
    const tokens = await tokensFor(publicClient)
    expect(
      (
        await postForm(tokenUrl(), {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: publicClient.client_id,
        })
      ).status,
    ).toBe(200)
    const withSecret = await postForm(tokenUrl(), {
      grant_type: 'refresh_token',
      refresh_token: 'x',
      client_id: publicClient.client_id,
      client_secret: 'guess',
    })
    expect(withSecret.body.error).toBe('invalid_client')
  })
})
