import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedClient } from '../services/clients/create.ts'
import { obtainTokens, postForm, startTestIdentity, type TestIdentity } from './testing.ts'

let identity: TestIdentity
let client: CreatedClient
let other: CreatedClient

beforeAll(async () => {
  identity = await startTestIdentity()
  client = await identity.client({ firstParty: true })
  other = await identity.client({ firstParty: true })
})
afterAll(() => identity?.close())

const revoke = (token: string, by: CreatedClient = client) =>
  postForm(`${identity.url}/api/oauth/revoke`, {
    token,
    client_id: by.client_id,
    client_secret: by.client_secret ?? '',
  })

const userinfoStatus = async (token: string) =>
  (await fetch(`${identity.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status

const refresh = (token: string) =>
  postForm(`${identity.url}/api/oauth/token`, {
    grant_type: 'refresh_token',
    refresh_token: token,
    client_id: client.client_id,
    client_secret: client.client_secret ?? '',
  })

describe('revocation', () => {
  it('revocation answers 200 for unknown tokens', async () => {
    const response = await revoke('never-issued')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({})
  })

  it('revoking a refresh token also ends the access tokens of its family', async () => {
    const first = await obtainTokens(identity, client)
    const second = (await refresh(first.refresh_token)).body as { access_token: string; refresh_token: string }
    expect((await revoke(second.refresh_token)).status).toBe(200)
    expect(await userinfoStatus(first.access_token)).toBe(401)
    expect(await userinfoStatus(second.access_token)).toBe(401)
    expect((await refresh(second.refresh_token)).body.error).toBe('invalid_grant')
  })

  it('revoking an access token ends only that access token', async () => {
    const tokens = await obtainTokens(identity, client)
    await revoke(tokens.access_token)
    expect(await userinfoStatus(tokens.access_token)).toBe(401)
    expect((await refresh(tokens.refresh_token)).status).toBe(200)
  })

  it("another client cannot revoke a client's tokens", async () => {
    const tokens = await obtainTokens(identity, client)
    expect((await revoke(tokens.refresh_token, other)).status).toBe(200)
    expect((await revoke(tokens.access_token, other)).status).toBe(200)
    expect(await userinfoStatus(tokens.access_token)).toBe(200)
    expect((await refresh(tokens.refresh_token)).status).toBe(200)
  })

  it('revoke errors are application/json with problem and RFC 6749 fields', async () => {
    const response = await postForm(`${identity.url}/api/oauth/revoke`, {
      token: 'x',
      client_id: client.client_id,
      client_secret: 'wrong',
    })
    expect(response.status).toBe(401)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.body).toMatchObject({
      error: 'invalid_client',
      error_description: expect.any(String),
      code: 'UNAUTHORIZED',
      status: 401,
    })
    const missing = await postForm(`${identity.url}/api/oauth/revoke`, {
      client_id: client.client_id,
      client_secret: client.client_secret ?? '',
    })
    expect(missing.body).toMatchObject({ error: 'invalid_request', status: 400 })
  })
})
