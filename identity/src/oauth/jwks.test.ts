import { createAccessTokenVerifier, createLogger } from '@guard/shared'
import { decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedClient } from '../services/clients/create.ts'
import { rotateSigningKeys } from '../services/keys/rotate.ts'
import { prepareOAuth } from './setup.ts'
import { obtainTokens, startTestIdentity, type TestIdentity } from './testing.ts'

let identity: TestIdentity
let client: CreatedClient

beforeAll(async () => {
  identity = await startTestIdentity()
  client = await identity.client({ firstParty: true })
})
afterAll(() => identity?.close())

const jwks = async () =>
  (await (await fetch(`${identity.url}/.well-known/jwks.json`)).json()) as { keys: Array<Record<string, string>> }
const userinfoStatus = async (token: string) =>
  (await fetch(`${identity.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status
const rotate = () => rotateSigningKeys(identity.sql, identity.ctx.secrets.keyEncryption)

describe('signing keys', () => {
  it('JWKS publishes public RS256 members only', async () => {
    const { keys } = await jwks()
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use'])
  })

  it('signing keys are stored with the private part encrypted', async () => {
    const { rows } = await identity.sql.query<{ private_key_encrypted: string }>(
      'SELECT private_key_encrypted FROM identity.signing_keys',
    )
    for (const row of rows) {
      expect(row.private_key_encrypted).toMatch(/^v1\./)
      expect(Buffer.from(row.private_key_encrypted.split('.')[3] ?? '', 'base64url').toString('latin1')).not.toContain(
        'PRIVATE KEY',
      )
    }
    await expect(
      prepareOAuth({
        sql: identity.sql,
        log: createLogger({ name: 'test', level: 'silent' }),
        env: { GUARD_SECRET_KEY: 'another-secret-key-another-secret-key', GUARD_DATA_DIR: '/nonexistent' },
        issuer: identity.url,
      }),
    ).rejects.toThrow(/GUARD_SECRET_KEY/)
  })

  it('key rotation keeps old tokens verifiable', async () => {
    // The collector's view: a verifier that fetched the key set before the rotation.
    const verify = createAccessTokenVerifier({ issuer: identity.url, cooldownMs: 0 })
    const before = await obtainTokens(identity, client, { scope: 'openid organizations' })
    await verify(before.access_token)
    const rotation = await rotate()
    const after = await obtainTokens(identity, client, { scope: 'openid organizations' })

    expect(decodeProtectedHeader(before.access_token).kid).toBe(rotation.previousKid)
    expect(decodeProtectedHeader(after.access_token).kid).toBe(rotation.kid)
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([rotation.kid, rotation.previousKid])
    expect(await userinfoStatus(before.access_token)).toBe(200)
    expect(await userinfoStatus(after.access_token)).toBe(200)
    // The new kid is unknown to the verifier's cached key set: it refetches instead of refusing.
    await expect(verify(after.access_token)).resolves.toMatchObject({ sub: identity.user.id })
    await expect(verify(before.access_token)).resolves.toMatchObject({ sub: identity.user.id })
  })

  it('a key rotated out twice leaves the key set and its tokens stop verifying', async () => {
    const old = await obtainTokens(identity, client)
    await rotate()
    await rotate()
    expect((await jwks()).keys.map((key) => key.kid)).not.toContain(decodeProtectedHeader(old.access_token).kid)
    expect(await userinfoStatus(old.access_token)).toBe(401)
  })
})
