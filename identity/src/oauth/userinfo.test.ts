import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CreatedClient } from '../services/clients/create.ts'
import { obtainTokens, postForm, startTestIdentity, type TestIdentity } from './testing.ts'

let identity: TestIdentity
let client: CreatedClient

beforeAll(async () => {
  identity = await startTestIdentity()
  client = await identity.client({ firstParty: true })
})
afterAll(() => identity?.close())
afterEach(() => vi.useRealTimers())

const userinfo = (token: string | undefined) =>
  fetch(`${identity.url}/api/oauth/userinfo`, token ? { headers: { authorization: `Bearer ${token}` } } : {})

async function expectInvalidToken(response: Response) {
  expect(response.status).toBe(401)
  expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  expect(await response.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
}

describe('userinfo', () => {
  it('claims are filtered by the scopes on the token', async () => {
    const profile = await obtainTokens(identity, client, { scope: 'openid profile' })
    expect(await (await userinfo(profile.access_token)).json()).toEqual({
      sub: identity.user.id,
      name: 'Ann',
      role: 'admin',
    })
    const organizations = await obtainTokens(identity, client, { scope: 'openid organizations' })
    expect(await (await userinfo(organizations.access_token)).json()).toEqual({
      sub: identity.user.id,
      organizations: [
        { id: identity.organization.id, name: 'Acme', slug: 'acme', role: 'owner', membershipId: expect.any(String) },
      ],
    })
  })

  it('POST accepts the access token as the form field access_token, but not twice', async () => {
    const tokens = await obtainTokens(identity, client)
    const viaForm = await postForm(`${identity.url}/api/oauth/userinfo`, { access_token: tokens.access_token })
    expect(viaForm.body).toEqual({ sub: identity.user.id, email: identity.user.email })
    const both = await postForm(
      `${identity.url}/api/oauth/userinfo`,
      { access_token: tokens.access_token },
      { authorization: `Bearer ${tokens.access_token}` },
    )
    expect(both.status).toBe(400)
    expect(both.body).toMatchObject({ code: 'VALIDATION_ERROR', detail: expect.any(String), hint: expect.any(String) })
  })

  it('missing token is 401 with WWW-Authenticate invalid_token', async () => {
    await expectInvalidToken(await userinfo(undefined))
    await expectInvalidToken(await userinfo('not-a-jwt'))
  })

  it('expired token at userinfo is 401 invalid_token', async () => {
    const tokens = await obtainTokens(identity, client)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 16 * 60 * 1000)
    await expectInvalidToken(await userinfo(tokens.access_token))
  })

  it('revoked token at userinfo is 401 invalid_token', async () => {
    const tokens = await obtainTokens(identity, client)
    expect((await userinfo(tokens.access_token)).status).toBe(200)
    const revoked = await postForm(`${identity.url}/api/oauth/revoke`, {
      token: tokens.access_token,
      token_type_hint: 'access_token',
      client_id: client.client_id,
      client_secret: client.client_secret ?? '',
    })
    expect(revoked.status).toBe(200)
    await expectInvalidToken(await userinfo(tokens.access_token))
  })

  it('an ID token is no access token', async () => {
    const tokens = await obtainTokens(identity, client)
    await expectInvalidToken(await userinfo(tokens.id_token))
  })
})
