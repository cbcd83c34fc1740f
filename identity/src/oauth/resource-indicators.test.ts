import { ConfigError, createAccessTokenVerifier, MONITORING_API_AUDIENCE } from '@guard/shared'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseIdentityEnv } from '../env.ts'
import type { CreatedClient } from '../services/clients/create.ts'
import { mcpResourcesOf } from './resources.ts'
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

const MCP = 'http://127.0.0.1:4001/mcp'
const API_MCP = 'http://127.0.0.1:4001/api/mcp'
const REDIRECT = 'http://127.0.0.1:9/callback'
let identity: TestIdentity
let client: CreatedClient

beforeAll(async () => {
  identity = await startTestIdentity({ mcpResources: [MCP, API_MCP] })
  client = await identity.client({ isPublic: true, redirectUris: [REDIRECT], firstParty: false })
})
afterAll(() => identity?.close())

const credentials = () => ({ email: identity.user.email, password: TEST_PASSWORD })
const tokenUrl = () => `${identity.url}/api/oauth/token`

/** Authorizes through the sign-in and consent pages; the callback and the PKCE verifier. */
async function authorize(params: Record<string, string>, browser = new HttpBrowser(), clientId = client.client_id) {
  const pkce = pkcePair()
  const callback = await browser.authorize(
    authorizeUrl(identity, {
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'read',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      ...params,
    }),
    credentials(),
  )
  return { callback, verifier: pkce.verifier }
}

const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
  postForm(tokenUrl(), {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_id: client.client_id,
    ...extra,
  })

async function tokensFor(resource: string, scope = 'read') {
  const { callback, verifier } = await authorize({ resource, scope })
  const response = await exchange(callback.searchParams.get('code') ?? '', verifier)
  expect(response.status).toBe(200)
  return response.body as { access_token: string; refresh_token: string; scope: string }
}

describe('authorization server metadata (RFC 8414)', () => {
  it('advertises registration, PKCE S256, the scopes read and write and the known resources', async () => {
    const metadata = (await (await fetch(`${identity.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >
    expect(metadata).toMatchObject({
      issuer: identity.url,
      authorization_endpoint: `${identity.url}/api/oauth/authorize`,
      token_endpoint: `${identity.url}/api/oauth/token`,
      registration_endpoint: `${identity.url}/api/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      protected_resources: [MCP, API_MCP],
    })
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['read', 'write']))
    expect(metadata.token_endpoint_auth_methods_supported).toContain('none')
  })

  it('OpenID discovery repeats every RFC 8414 field with the same value but the scopes', async () => {
    const { scopes_supported: _oauthScopes, ...oauth } = (await (
      await fetch(`${identity.url}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>
    const openid = (await (await fetch(`${identity.url}/.well-known/openid-configuration`)).json()) as object
    expect(openid).toMatchObject(oauth)
  })
})

describe('configured resources', () => {
  it('GUARD_MCP_RESOURCES is a list of canonical URLs; a fragment or a relative URL stops the start', () => {
    expect(
      parseIdentityEnv({ GUARD_MCP_RESOURCES: 'HTTPS://Guard.example:443/mcp, http://127.0.0.1:4001/api/mcp' }),
    ).toMatchObject({ GUARD_MCP_RESOURCES: ['https://guard.example/mcp', 'http://127.0.0.1:4001/api/mcp'] })
    for (const value of ['https://guard.example/mcp#x', '/mcp', 'ftp://guard.example/mcp']) {
      expect(() => parseIdentityEnv({ GUARD_MCP_RESOURCES: value })).toThrow(ConfigError)
      expect(() => parseIdentityEnv({ GUARD_MCP_RESOURCES: value })).toThrow(/GUARD_MCP_RESOURCES/)
    }
  })

  it("the default resources are the collector public URL's /mcp and /api/mcp", () => {
    expect(mcpResourcesOf('https://guard.example/')).toEqual([
      'https://guard.example/mcp',
      'https://guard.example/api/mcp',
    ])
  })
})

describe('CORS for browser-based clients', () => {
  it('metadata, registration and token answer any origin without credentials; the authorization endpoint does not', async () => {
    const origin = { origin: 'http://localhost:6274' }
    const preflight = await fetch(`${identity.url}/api/oauth/register`, {
      method: 'OPTIONS',
      headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Content-Type/)
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull()
    const metadata = await fetch(`${identity.url}/.well-known/oauth-authorization-server`, { headers: origin })
    expect(metadata.headers.get('access-control-allow-origin')).toBe('*')
    const token = await postForm(
      tokenUrl(),
      { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'x' },
      origin,
    )
    expect(token.headers.get('access-control-allow-origin')).toBe('*')
    const authorize = await fetch(authorizeUrl(identity, { client_id: client.client_id }), {
      headers: origin,
      redirect: 'manual',
    })
    expect(authorize.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('resource indicators (RFC 8707)', () => {
  it('the access token for a resource has that resource as its only audience, scope read and the organizations', async () => {
    const tokens = await tokensFor(MCP)
    expect(tokens.scope).toBe('read')
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt' })
    const claims = decodeJwt(tokens.access_token)
    expect(claims.aud).toBe(MCP)
    expect(claims).toMatchObject({
      iss: identity.url,
      sub: identity.user.id,
      client_id: client.client_id,
      scope: 'read',
      organizations: [expect.objectContaining({ id: identity.organization.id })],
    })
    // What the collector runs: verified against the key set with the resource as audience.
    const verify = createAccessTokenVerifier({ issuer: identity.url, audience: MCP })
    await expect(verify(tokens.access_token)).resolves.toMatchObject({ scope: 'read' })
    const monitoringApi = createAccessTokenVerifier({ issuer: identity.url, audience: MONITORING_API_AUDIENCE })
    await expect(monitoringApi(tokens.access_token)).rejects.toThrow()
  })

  it('an authorization without resource keeps the default audience', async () => {
    const { callback, verifier } = await authorize({ scope: 'read' })
    const response = await exchange(callback.searchParams.get('code') ?? '', verifier)
    expect(decodeJwt(String(response.body.access_token)).aud).toEqual([identity.url, MONITORING_API_AUDIENCE])
  })

  it.each([
    ['an unknown resource', 'http://127.0.0.1:4001/other'],
    ['a resource with a fragment', `${MCP}#x`],
    ['a relative resource', '/mcp'],
  ])('authorize with %s answers invalid_target', async (_case, resource) => {
    const response = await new HttpBrowser().request(
      authorizeUrl(identity, {
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        scope: 'read',
        resource,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }),
    )
    const location = new URL(response.headers.get('location') ?? '')
    expect(location.origin + location.pathname).toBe(REDIRECT)
    expect(location.searchParams.get('error')).toBe('invalid_target')
  })

  it('the token request may repeat the resource of the code, not name another or an unknown one', async () => {
    const other = await authorize({ resource: MCP })
    const refused = await exchange(other.callback.searchParams.get('code') ?? '', other.verifier, { resource: API_MCP })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe('invalid_target')
    const unknown = await authorize({ resource: MCP })
    const refusedUnknown = await exchange(unknown.callback.searchParams.get('code') ?? '', unknown.verifier, {
      resource: 'https://evil.example/mcp',
    })
    expect(refusedUnknown.body.error).toBe('invalid_target')
    const same = await authorize({ resource: MCP })
    const accepted = await exchange(same.callback.searchParams.get('code') ?? '', same.verifier, { resource: MCP })
    expect(accepted.status).toBe(200)
    expect(decodeJwt(String(accepted.body.access_token)).aud).toBe(MCP)
  })

  it('a code issued without resource cannot be exchanged for a resource token', async () => {
    const { callback, verifier } = await authorize({})
    const response = await exchange(callback.searchParams.get('code') ?? '', verifier, { resource: MCP })
    expect(response.body.error).toBe('invalid_target')
  })

  it('refresh tokens keep the resource binding', async () => {
    const tokens = await tokensFor(API_MCP)
    const refreshed = await postForm(tokenUrl(), {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.client_id,
    })
    expect(refreshed.status).toBe(200)
    expect(decodeJwt(String(refreshed.body.access_token)).aud).toBe(API_MCP)
    const elsewhere = await postForm(tokenUrl(), {
      grant_type: 'refresh_token',
      refresh_token: String(refreshed.body.refresh_token),
      client_id: client.client_id,
      resource: MCP,
    })
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.body.error).toBe('invalid_target')
  })

  it('a resource token is not accepted at userinfo: its audience is the resource alone', async () => {
    const tokens = await tokensFor(MCP)
    const response = await fetch(`${identity.url}/api/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    expect(response.status).toBe(401)
  })
})

describe('consent for read and write on a resource', () => {
  it('the consent page names read and write in plain words, and the resource', async () => {
    const browser = new HttpBrowser()
    const pkce = pkcePair()
    const start = await browser.request(
      authorizeUrl(identity, {
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        scope: 'read write',
        resource: MCP,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        prompt: 'consent',
      }),
    )
    const signIn = await browser.request(new URL(start.headers.get('location') ?? '', identity.url).href)
    const page = await signIn.text()
    const signedIn = await browser.request(`${identity.url}/sign-in`, {
      form: { csrf: hiddenField(page, 'csrf'), return_to: hiddenField(page, 'return_to'), ...credentials() },
    })
    const again = await browser.request(new URL(signedIn.headers.get('location') ?? '', identity.url).href)
    const consent = await browser.request(new URL(again.headers.get('location') ?? '', identity.url).href)
    expect(consent.status).toBe(200)
    const text = await consent.text()
    expect(text).toContain('Read everything your role lets you read in your organizations: monitors, devices')
    expect(text).toContain('create, edit, pause and delete monitors and devices')
    expect(text).toContain(`<strong>${MCP}</strong>`)
  })

  it('consent given for one resource does not cover another', async () => {
    const fresh = await identity.client({ isPublic: true, redirectUris: [REDIRECT], firstParty: false })
    const browser = new HttpBrowser()
    await authorize({ resource: MCP }, browser, fresh.client_id)
    const pkce = pkcePair()
    const params = {
      client_id: fresh.client_id,
      redirect_uri: REDIRECT,
      scope: 'read',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }
    const same = await browser.request(authorizeUrl(identity, { ...params, resource: MCP }))
    expect(new URL(same.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy()
    const other = await browser.request(authorizeUrl(identity, { ...params, resource: API_MCP }))
    expect(new URL(other.headers.get('location') ?? '', identity.url).pathname).toBe('/consent')
  })
})
