import { createLogger, openTestRelationalStore, type RelationalStore, signServiceToken } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildIdentityApp } from '../../app.ts'
import { migrateIdentity } from '../../server.ts'
import { authenticateClient } from './authenticate.ts'
import { findClient } from './client.ts'

const log = createLogger({ name: 'first-party-test', level: 'silent', pretty: false })
const SECRET = 'first-party-secret-key-first-party-secret-key'
let sql: RelationalStore
let app: Awaited<ReturnType<typeof buildIdentityApp>>

beforeAll(async () => {
  sql = await openTestRelationalStore()
  await migrateIdentity(sql)
  app = await buildIdentityApp({ log, internal: { sql, secretKey: SECRET } })
})
afterAll(async () => {
  await app?.close()
  await sql?.close()
})

const register = async (body: Record<string, unknown>, token?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/internal/first-party-clients',
    headers: { authorization: `Bearer ${token ?? (await signServiceToken(SECRET, 'collector'))}` },
    payload: body,
  })

describe('POST /api/v1/internal/first-party-clients (the web console registering itself)', () => {
  it('creates a confidential first-party PKCE client once, then adds addresses without a new secret', async () => {
    const created = await register({
      name: 'Guard web console',
      redirect_uris: ['http://127.0.0.1:4001/auth/callback'],
      post_logout_redirect_uris: ['http://127.0.0.1:4001/'],
    })
    expect(created.statusCode).toBe(200)
    const { client_id, client_secret } = created.json() as { client_id: string; client_secret: string }
    expect(client_secret).toMatch(/.{20,}/)
    const client = (await findClient(sql, client_id))!
    expect(client).toMatchObject({ isPublic: false, firstParty: true, requirePkce: true })
    expect(client.allowedScopes).toContain('organizations')
    // The console mints API keys for its users: the first-party scope is the console's.
    expect(client.allowedScopes).toEqual(expect.arrayContaining(['read', 'write', 'api-keys:write']))
    expect(client.allowedScopes).not.toContain('admin')

    const again = await register({
      client_id,
      name: 'Guard web console',
      redirect_uris: ['https://guard.example/auth/callback'],
      post_logout_redirect_uris: ['https://guard.example/'],
    })
    expect(again.json()).toEqual({ client_id })
    const updated = (await findClient(sql, client_id))!
    expect(updated.redirectUris).toEqual(['http://127.0.0.1:4001/auth/callback', 'https://guard.example/auth/callback'])
    expect(updated.postLogoutRedirectUris).toContain('https://guard.example/')
    // The secret shown at creation still authenticates the client.
    expect((await authenticateClient(sql, { clientId: client_id, clientSecret: client_secret })).id).toBe(client_id)
  })

  it('refuses callers without the shared secret, and redirect addresses that are not https or loopback', async () => {
    const foreign = await signServiceToken('another-secret-key-another-secret-key-x', 'collector')
    const refused = await register({ name: 'x', redirect_uris: ['http://127.0.0.1/cb'] }, foreign)
    expect(refused.statusCode).toBe(401)
    const plainHttp = await register({ name: 'x', redirect_uris: ['http://guard.example/auth/callback'] })
    expect(plainHttp.statusCode).toBe(400)
  })
})
