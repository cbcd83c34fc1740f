import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { obtainTokens, startTestIdentity, TEST_PASSWORD, type TestIdentity } from '../oauth/testing.ts'
import { ensureAdminToken } from '../services/admin-tokens/ensure.ts'
import { addMember } from '../services/organizations/add-member.ts'
import { createOrganization } from '../services/organizations/create.ts'
import { createUser } from '../services/users/create.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
const SECRET = 'upstream-client-secret-4f9a'
let identity: TestIdentity
let adminToken: string
let ownerToken: string

beforeAll(async () => {
  identity = await startTestIdentity()
  adminToken = (await ensureAdminToken(identity.sql)) ?? ''
  const app = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
  ownerToken = (await obtainTokens(identity, app, { scope: 'openid' })).access_token
})
afterAll(() => identity?.close())

async function call(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${identity.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const providerBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Corp',
  issuer: identity.url,
  client_id: 'guard',
  client_secret: SECRET,
  ...overrides,
})

describe('upstream sign-in providers over the admin API', () => {
  it('stores the client secret encrypted, never returns it, and audits the change', async () => {
    const created = await call('POST', '/api/v1/admin/federation/providers', adminToken, providerBody())
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      organizationId: null,
      clientSecretSet: true,
      scopes: ['openid', 'email', 'profile'],
      redirectUri: `${identity.url}/sign-in/federation/callback`,
    })
    expect(JSON.stringify(created.body)).not.toContain(SECRET)
    const { rows } = await identity.sql.query<{ client_secret_encrypted: string }>(
      'SELECT client_secret_encrypted FROM identity.federation_providers WHERE id = $1',
      [created.body.id],
    )
    expect(rows[0]?.client_secret_encrypted).toMatch(/^v1\./)
    expect(rows[0]?.client_secret_encrypted).not.toContain(SECRET)
    const audit = await identity.sql.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM identity.audit_log WHERE action = 'federation.provider.create'",
    )
    expect(JSON.stringify(audit.rows)).not.toContain(SECRET)

    const changed = await call('PATCH', `/api/v1/admin/federation/providers/${created.body.id}`, adminToken, {
      required: true,
    })
    expect(changed).toMatchObject({ status: 200, body: { required: true, name: 'Corp', jitProvisioning: false } })
    const list = await call('GET', '/api/v1/admin/federation/providers', adminToken)
    expect(list.body.providers).toEqual([expect.objectContaining({ id: created.body.id })])
  })

  it('refuses a private issuer unless private targets are allowed, before storing anything', async () => {
    identity.ctx.allowPrivateTargets = false
    try {
      for (const issuer of [identity.url, 'http://169.254.169.254/', 'https://10.1.2.3/realms/x']) {
        const refused = await call('POST', '/api/v1/admin/federation/providers', adminToken, providerBody({ issuer }))
        expect(refused.status).toBe(400)
        expect(refused.body.detail).toMatch(/^issuer: refused/)
      }
    } finally {
      identity.ctx.allowPrivateTargets = true
    }
    const { rows } = await identity.sql.query('SELECT 1 FROM identity.federation_providers WHERE issuer <> $1', [
      identity.url,
    ])
    expect(rows).toHaveLength(0)
  })

  it('answers bad input with 400 naming the field', async () => {
    for (const [body, field] of [
      [providerBody({ issuer: 'ftp://x' }), 'issuer'],
      [providerBody({ scopes: ['email'] }), 'scopes'],
      [providerBody({ allowed_domains: ['not a domain'] }), 'allowed_domains'],
      [providerBody({ role_map: { x: 'king' } }), 'role_map'],
      [providerBody({ client_secret: undefined }), 'client_secret'],
    ] as const) {
      const refused = await call('POST', '/api/v1/admin/federation/providers', adminToken, body)
      expect(refused.status).toBe(400)
      expect(JSON.stringify(refused.body)).toContain(field)
    }
  })

  it('needs an admin credential', async () => {
    expect((await call('GET', '/api/v1/admin/federation/providers', 'nope')).status).toBe(401)
    expect((await call('GET', '/api/v1/admin/federation/providers', ownerToken)).status).toBe(403)
  })
})

describe("an organization's own upstream sign-in (/api/v1/organizations/{org}/federation/providers)", () => {
  it('owners manage it; other members may not; it stays within its organization', async () => {
    const base = '/api/v1/organizations/acme/federation/providers'
    const created = await call('POST', base, ownerToken, providerBody({ allowed_domains: ['acme.example'] }))
    expect(created).toMatchObject({ status: 201, body: { allowedDomains: ['acme.example'] } })
    const id = String(created.body.id)

    const member = await createUser(identity.sql, { email: 'mo@example.org', password: TEST_PASSWORD, name: 'Mo' })
    await addMember(identity.sql, { organizationSlug: 'acme', userId: member.id, role: 'admin' })
    const app = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
    const memberToken = (await obtainTokens({ ...identity, user: member }, app, { scope: 'openid' })).access_token
    expect((await call('GET', base, memberToken)).status).toBe(403)
    expect((await call('DELETE', `${base}/${id}`, memberToken)).status).toBe(403)

    // Another organization's owner reaches neither the list nor the provider by id.
    await createOrganization(identity.sql, { name: 'Other', slug: 'other' })
    await addMember(identity.sql, { organizationSlug: 'other', userId: member.id, role: 'owner' })
    const other = '/api/v1/organizations/other/federation/providers'
    expect((await call('GET', other, memberToken)).body).toEqual({ providers: [] })
    expect((await call('PATCH', `${other}/${id}`, memberToken, { name: 'Mine' })).status).toBe(404)
    expect((await call('DELETE', `${other}/${id}`, memberToken)).status).toBe(404)

    expect((await call('GET', base, ownerToken)).body.providers).toEqual([expect.objectContaining({ id })])
    expect(await call('DELETE', `${base}/${id}`, ownerToken)).toMatchObject({ status: 200, body: { id } })
    expect((await call('GET', base, ownerToken)).body).toEqual({ providers: [] })
  })
})
