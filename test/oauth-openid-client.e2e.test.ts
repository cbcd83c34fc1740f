import * as oauth from 'oauth4webapi'
import * as client from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HttpBrowser, startTestIdentity, TEST_PASSWORD, type TestIdentity } from '../identity/src/oauth/testing.ts'
import { MONITORING_API_AUDIENCE } from '../shared/src/auth/access-token.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'

let identity: TestIdentity

beforeAll(async () => {
  identity = await startTestIdentity()
})
afterAll(() => identity?.close())

/** The whole flow as a relying party runs it, through the real sign-in and consent pages. */
async function signIn(config: client.Configuration, scope: string) {
  const verifier = client.randomPKCECodeVerifier()
  const nonce = client.randomNonce()
  const state = client.randomState()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  })
  const callback = await new HttpBrowser().authorize(url.href, { email: identity.user.email, password: TEST_PASSWORD })
  return client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedNonce: nonce,
    expectedState: state,
    idTokenExpected: true,
  })
}

describe.each([
  { kind: 'public', auth: () => client.None() },
  { kind: 'confidential (client_secret_post)', auth: (secret: string) => client.ClientSecretPost(secret) },
  { kind: 'confidential (client_secret_basic)', auth: (secret: string) => client.ClientSecretBasic(secret) },
])('openid-client v6 with a $kind client', ({ kind, auth }) => {
  let config: client.Configuration

  beforeAll(async () => {
    const registered = await identity.client({ isPublic: kind === 'public', redirectUris: [REDIRECT] })
    config = await client.discovery(
      new URL(identity.url),
      registered.client_id,
      undefined,
      auth(registered.client_secret ?? ''),
      {
        execute: [client.allowInsecureRequests],
      },
    )
    client.enableNonRepudiationChecks(config)
  })

  it('discovers the provider, signs in with PKCE and gets verified tokens', async () => {
    expect(config.serverMetadata()).toMatchObject({
      issuer: identity.url,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    })
    const tokens = await signIn(config, 'openid email profile organizations')
    const claims = tokens.claims()
    expect(claims).toMatchObject({
      sub: identity.user.id,
      email: identity.user.email,
      name: 'Ann',
      azp: config.clientMetadata().client_id,
    })
    expect(claims?.auth_time).toBeTypeOf('number')
    expect(tokens.expiresIn()).toBeGreaterThan(890)
  })

  it('serves userinfo by GET and POST, filtered by the scopes granted', async () => {
    const tokens = await signIn(config, 'openid email')
    const viaGet = await client.fetchUserInfo(config, tokens.access_token, identity.user.id)
    expect(viaGet).toEqual({ sub: identity.user.id, email: identity.user.email })
    const viaPost = await client.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(config.serverMetadata().userinfo_endpoint!),
      'POST',
      null,
    )
    expect(await viaPost.json()).toEqual(viaGet)
  })

  it('refreshes with rotation, then revocation ends the family', async () => {
    const first = await signIn(config, 'openid profile organizations')
    const second = await client.refreshTokenGrant(config, first.refresh_token!)
    expect(second.refresh_token).toBeDefined()
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect(second.claims()?.sub).toBe(identity.user.id)
    const info = await client.fetchUserInfo(config, second.access_token, identity.user.id)
    expect(info.organizations).toEqual([expect.objectContaining({ slug: 'acme', role: 'owner' })])

    await client.tokenRevocation(config, second.refresh_token!)
    await expect(client.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    })
    await expect(client.fetchUserInfo(config, second.access_token, identity.user.id)).rejects.toThrow()
  })

  it("issues access tokens oauth4webapi's validateJwtAccessToken accepts for the monitoring API", async () => {
    const tokens = await signIn(config, 'openid organizations')
    const as = config.serverMetadata() as oauth.AuthorizationServer
    const request = new Request('http://127.0.0.1/api/domains', {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    const claims = await oauth.validateJwtAccessToken(as, request, MONITORING_API_AUDIENCE, {
      [oauth.allowInsecureRequests]: true,
    })
    expect(claims).toMatchObject({
      sub: identity.user.id,
      client_id: config.clientMetadata().client_id,
      scope: 'openid organizations',
    })
  })
})
