import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../testing/services.ts'
import { CLOCK_SKEW_SECONDS, createAccessTokenVerifier, MONITORING_API_AUDIENCE } from './access-token.ts'

let server: Server
let issuer: string
let published: JWK[] = []
let fetches = 0

async function newKey(kid: string): Promise<{ kid: string; privateKey: CryptoKey; jwk: JWK }> {
  const { publicKey, privateKey } = await generateKeyPair('RS256')
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } }
}

function sign(
  key: { kid: string; privateKey: CryptoKey },
  overrides: { iss?: string; aud?: string; typ?: string; exp?: number; iat?: number } = {},
) {
  return new SignJWT({
    client_id: 'app',
    scope: 'openid organizations',
    organizations: [{ id: 'org-1', role: 'owner' }],
  })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: overrides.typ ?? 'at+jwt' })
    .setIssuer(overrides.iss ?? issuer)
    .setSubject('user-1')
    .setAudience(overrides.aud ?? MONITORING_API_AUDIENCE)
    .setIssuedAt(overrides.iat)
    .setJti('token-1')
    .setExpirationTime(overrides.exp ?? '15m')
    .sign(key.privateKey)
}

beforeAll(async () => {
  server = createServer((_request, response) => {
    fetches++
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ keys: published }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

describe('access token verifier', () => {
  it('accepts a token of the issuer for the monitoring API audience', async () => {
    const key = await newKey('a')
    published = [key.jwk]
    const claims = await createAccessTokenVerifier({ issuer })(await sign(key))
    expect(claims).toMatchObject({ sub: 'user-1', client_id: 'app', organizations: [{ id: 'org-1', role: 'owner' }] })
  })

  it('refuses another issuer, another audience, another typ and an expired token as UNAUTHORIZED', async () => {
    const key = await newKey('b')
    published = [key.jwk]
    const verify = createAccessTokenVerifier({ issuer })
    for (const token of [
      await sign(key, { iss: 'http://127.0.0.1:1' }),
      await sign(key, { aud: 'some-other-api' }),
      await sign(key, { typ: 'JWT' }),
      await sign(key, { exp: Math.floor(Date.now() / 1000) - 60 }),
    ]) {
      await expect(verify(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    }
  })

  it('refuses a token issued in the future beyond the clock skew, accepts one within it', async () => {
    const key = await newKey('skew')
    published = [key.jwk]
    const verify = createAccessTokenVerifier({ issuer })
    const now = Math.floor(Date.now() / 1000)
    const ahead = (seconds: number) => sign(key, { iat: now + seconds, exp: now + seconds + 900 })
    await expect(verify(await ahead(CLOCK_SKEW_SECONDS + 120))).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(verify(await ahead(3600))).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(verify(await ahead(CLOCK_SKEW_SECONDS - 20))).resolves.toMatchObject({ sub: 'user-1' })
  })

  it('an unknown kid refetches the key set', async () => {
    const first = await newKey('c')
    const second = await newKey('d')
    published = [first.jwk]
    const verify = createAccessTokenVerifier({ issuer, cooldownMs: 0 })
    await verify(await sign(first))
    const before = fetches
    published = [second.jwk, first.jwk]
    await expect(verify(await sign(second))).resolves.toMatchObject({ sub: 'user-1' })
    expect(fetches).toBe(before + 1)
    // A kid still unknown after the refetch is refused, not retried forever.
    await expect(verify(await sign(await newKey('e')))).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('an unreachable key set is SERVICE_UNAVAILABLE, not a 401', async () => {
    const key = await newKey('f')
    const verify = createAccessTokenVerifier({ issuer, jwksUrl: `http://127.0.0.1:${await freePort()}/jwks` })
    await expect(verify(await sign(key))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
  })
})
