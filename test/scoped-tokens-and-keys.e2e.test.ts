import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { CONSOLE_SCOPE } from '../collector/src/console/identity-client.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import {
  signInPublicClient,
  startTestIdentity,
  TEST_PASSWORD,
  TEST_SECRET_KEY,
  type TestIdentity,
} from '../identity/src/oauth/testing.ts'
import { removeMember } from '../identity/src/services/memberships/remove.ts'
import { addMember } from '../identity/src/services/organizations/add-member.ts'
import { createUser } from '../identity/src/services/users/create.ts'
import { updateUser } from '../identity/src/services/users/update.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
const READ_CACHE_TTL_MS = 300

/**
 * A real identity (OAuth pages, dynamic registration, the internal membership route) and a real
 * collector verifying its tokens and asking it about API keys' creators, in one process.
 */
describe('tokens do only what their scopes say, and keys die with their creator’s access', () => {
  let identity: TestIdentity
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const adam = { email: 'adam@acme.test', password: TEST_PASSWORD, id: '' }

  beforeAll(async () => {
    identity = await startTestIdentity({ internal: true })
    harness = await collectorForTest({
      GUARD_IDENTITY_URL: identity.url,
      GUARD_SECRET_KEY: TEST_SECRET_KEY,
      GUARD_READ_CACHE_TTL_MS: String(READ_CACHE_TTL_MS),
    })
    app = await buildCollectorApp(harness.ctx)
    adam.id = (await createUser(identity.sql, { email: adam.email, password: adam.password, name: 'Adam' })).id
    await addMember(identity.sql, { organizationSlug: 'acme', userId: adam.id, role: 'admin' })
  })
  afterAll(async () => {
    await app?.close()
    await harness?.close()
    await identity?.close()
  })

  const call = async (token: string, method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    })
    return { status: response.statusCode, body: response.json() }
  }

  /** An application registering itself (RFC 7591), then signed into by the owner through the consent page. */
  async function thirdPartyToken(scope: string): Promise<string> {
    const registered = await fetch(`${identity.url}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Helpful app', redirect_uris: [REDIRECT], scope }),
    })
    const { client_id } = (await registered.json()) as { client_id: string }
    const tokens = await signInPublicClient({
      identityUrl: identity.url,
      clientId: client_id,
      redirectUri: REDIRECT,
      scope,
      credentials: { email: identity.user.email, password: TEST_PASSWORD },
    })
    return tokens.access_token
  }

  it('an app the owner let read reads, and can neither write nor mint a permanent key', async () => {
    for (const scope of ['openid read', 'openid organizations']) {
      const token = await thirdPartyToken(scope)
      expect((await call(token, 'GET', '/api/domains')).status, scope).toBe(scope.includes('read') ? 200 : 403)
      expect((await call(token, 'POST', '/api/domains', { url: 'https://third.example' })).status, scope).toBe(403)
      expect((await call(token, 'POST', '/api-keys', { name: 'mine now', permissions: ['*:*'] })).status, scope).toBe(
        403,
      )
    }
  })

  it('an app cannot even ask for the scope that mints keys', async () => {
    const registered = await fetch(`${identity.url}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], scope: 'openid read write api-keys:write' }),
    })
    expect(registered.status).toBe(400)
  })

  it("the console's first-party sign-in mints a key, which stops once its admin is removed and disabled", async () => {
    const console = await identity.client({ redirectUris: [REDIRECT], isPublic: true, firstParty: true })
    const tokens = await signInPublicClient({
      identityUrl: identity.url,
      clientId: console.client_id,
      redirectUri: REDIRECT,
      scope: CONSOLE_SCOPE,
      credentials: adam,
    })
    const minted = await call(tokens.access_token, 'POST', '/api-keys', {
      name: 'deploys',
      permissions: ['*:read', 'domains:write'],
    })
    expect(minted).toMatchObject({ status: 201, body: { data: { belongs_to: 'user', created_by: adam.id } } })
    const key = minted.body.data.key as string
    expect((await call(key, 'POST', '/api/domains', { url: 'https://adam.example' })).status).toBe(201)

    await removeMember(identity.sql, { organization: 'acme', userId: adam.id })
    await updateUser(identity.sql, { id: adam.id, changes: { disabled: true } })
    await new Promise((resolve) => setTimeout(resolve, READ_CACHE_TTL_MS + 100))
    expect(await call(key, 'POST', '/api/domains', { url: 'https://gone.example' })).toMatchObject({
      status: 401,
      body: { error: 'UNAUTHORIZED' },
    })
    expect((await call(key, 'GET', '/api/domains')).status).toBe(401)
  })
})
