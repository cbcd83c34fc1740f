import { API_KEYS_SCOPE } from '@guard/shared'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../services/clients/create.ts'
import {
  authorizeUrl,
  HttpBrowser,
  pkcePair,
  signInThroughPages,
  startTestIdentity,
  TEST_PASSWORD,
  type TestIdentity,
} from './testing.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
let identity: TestIdentity
beforeAll(async () => {
  identity = await startTestIdentity()
})
afterAll(() => identity?.close())

describe('the first-party scope api-keys:write', () => {
  it('a first-party client is registered with it and gets it, with the organizations claim', async () => {
    const console = await identity.client({ name: 'Console', redirectUris: [REDIRECT], firstParty: true })
    expect(console.allowed_scopes).toContain(API_KEYS_SCOPE)
    const { tokens } = await signInThroughPages(identity, console, { scope: `openid read write ${API_KEYS_SCOPE}` })
    expect(tokens.scope).toBe(`openid read write ${API_KEYS_SCOPE}`)
    expect(decodeJwt(tokens.access_token).organizations).toEqual([
      expect.objectContaining({ id: identity.organization.id, role: 'owner' }),
    ])
  })

  it('an operator cannot give it to a third-party client, and a third-party client is not given it by default', async () => {
    await expect(
      createClient(identity.sql, {
        name: 'Partner',
        redirectUris: [REDIRECT],
        isPublic: false,
        requirePkce: true,
        firstParty: false,
        allowedScopes: ['openid', API_KEYS_SCOPE],
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining(API_KEYS_SCOPE) })
    expect((await identity.client({ redirectUris: [REDIRECT] })).allowed_scopes).not.toContain(API_KEYS_SCOPE)
  })

  it('a third-party client asking for it is answered invalid_scope, whatever its stored scopes say', async () => {
    const partner = await identity.client({ name: 'Partner', redirectUris: [REDIRECT] })
    await identity.sql.query('UPDATE identity.clients SET allowed_scopes = allowed_scopes || $2 WHERE id = $1', [
      partner.client_id,
      [API_KEYS_SCOPE],
    ])
    const pkce = pkcePair()
    const callback = await new HttpBrowser().authorize(
      authorizeUrl(identity, {
        client_id: partner.client_id,
        redirect_uri: REDIRECT,
        scope: `openid ${API_KEYS_SCOPE}`,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      }),
      { email: identity.user.email, password: TEST_PASSWORD },
    )
    expect(callback.searchParams.get('error')).toBe('invalid_scope')
    expect(callback.searchParams.get('error_description')).toContain(API_KEYS_SCOPE)
  })
})
