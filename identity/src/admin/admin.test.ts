import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { obtainTokens, postForm, startTestIdentity, TEST_PASSWORD, type TestIdentity } from '../oauth/testing.ts'
import { ensureAdminToken } from '../services/admin-tokens/ensure.ts'
import { createUser } from '../services/users/create.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
let identity: TestIdentity
let token: string

beforeAll(async () => {
  identity = await startTestIdentity()
  token = (await ensureAdminToken(identity.sql)) ?? ''
})
afterAll(() => identity?.close())

async function admin(method: string, path: string, body?: unknown, bearer = token) {
  const response = await fetch(`${identity.url}/api/v1/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

describe('identity admin API', () => {
  it('creates the admin token once and keeps only its hash', async () => {
    expect(token).toMatch(/^guard_admin_[A-Za-z0-9_-]{43}$/)
    expect(await ensureAdminToken(identity.sql)).toBeUndefined()
    const { rows } = await identity.sql.query<{ token_hash: string }>('SELECT token_hash FROM identity.admin_tokens')
    expect(rows).toHaveLength(1)
    expect(rows[0]!.token_hash).not.toContain(token.slice(12))
  })

  it('manages users: create, list, get, update name, role and password, disable', async () => {
    const created = await admin('POST', '/users', {
      email: 'carl@example.org',
      password: 'carl-password-long',
      name: 'Carl',
      organization: 'acme',
      membershipRole: 'member',
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ email: 'carl@example.org', role: 'user', disabled: false })
    expect(created.body.organizations).toEqual([
      { id: identity.organization.id, slug: 'acme', name: 'Acme', role: 'member' },
    ])
    const id = created.body.id as string
    expect(
      (await admin('POST', '/users', { email: 'CARL@example.org', password: 'x'.repeat(12), name: 'C' })).status,
    ).toBe(409)
    expect((await admin('POST', '/users', { email: 'not-an-email', password: 'short', name: '' })).body).toMatchObject({
      code: 'VALIDATION_ERROR',
      hint: expect.any(String),
    })

    expect((await admin('GET', '/users?email=carl@example.org')).body.users.map((u: { id: string }) => u.id)).toEqual([
      id,
    ])
    expect((await admin('GET', `/users/${id}`)).body.name).toBe('Carl')
    expect((await admin('GET', '/users/nope')).status).toBe(404)
    const wrongMethod = await fetch(`${identity.url}/api/v1/admin/users/${id}`, { method: 'PUT' })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toContain('PATCH')

    const renamed = await admin('PATCH', `/users/${id}`, { name: 'Carl C', role: 'admin' })
    expect(renamed.body).toMatchObject({ name: 'Carl C', role: 'admin' })
    expect((await admin('PATCH', `/users/${id}`, {})).status).toBe(400)

    const tokens = await obtainTokens(identity, await identity.client({ redirectUris: [REDIRECT], firstParty: true }))
    const disabled = await admin('PATCH', `/users/${identity.user.id}`, { disabled: true })
    expect(disabled.body.disabled).toBe(true)
    // Disabling ends the user's token families at once.
    const userinfo = await fetch(`${identity.url}/api/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    expect(userinfo.status).toBe(401)
    const refreshed = await postForm(`${identity.url}/api/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    })
    expect(refreshed.status).toBeGreaterThanOrEqual(400)
    expect((await admin('PATCH', `/users/${identity.user.id}`, { disabled: false })).body.disabled).toBe(false)
  })

  it('manages organizations and memberships, keeping at least one owner', async () => {
    const org = await admin('POST', '/organizations', { name: 'Beta', slug: 'beta' })
    expect(org.status).toBe(201)
    expect((await admin('POST', '/organizations', { name: 'Beta 2', slug: 'beta' })).status).toBe(409)
    expect((await admin('PATCH', '/organizations/beta', { name: 'Beta Inc' })).body).toMatchObject({
      id: org.body.id,
      name: 'Beta Inc',
    })
    const listed = (await admin('GET', '/organizations')).body.organizations.map((o: { slug: string }) => o.slug)
    expect(listed).toEqual(expect.arrayContaining(['acme', 'beta']))

    const added = await admin('POST', '/organizations/beta/members', { email: identity.user.email, role: 'owner' })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ organizationId: org.body.id, userId: identity.user.id, role: 'owner' })
    expect((await admin('POST', '/organizations/beta/members', { userId: identity.user.id })).status).toBe(409)
    // The only owner cannot be demoted or removed.
    expect((await admin('PATCH', `/organizations/beta/members/${identity.user.id}`, { role: 'viewer' })).status).toBe(
      409,
    )
    expect((await admin('DELETE', `/organizations/beta/members/${identity.user.id}`)).status).toBe(409)
    const second = await admin('POST', '/users', {
      email: 'dora@example.org',
      password: 'dora-password-long',
      name: 'Dora',
    })
    await admin('POST', '/organizations/beta/members', { userId: second.body.id, role: 'owner' })
    expect(
      (await admin('PATCH', `/organizations/beta/members/${identity.user.id}`, { role: 'viewer' })).body.role,
    ).toBe('viewer')
    expect((await admin('DELETE', `/organizations/beta/members/${identity.user.id}`)).status).toBe(200)
    expect(
      (await admin('GET', '/organizations/beta/members')).body.members.map((m: { email: string }) => m.email),
    ).toEqual(['dora@example.org'])
  })

  it('manages OAuth clients: the secret is shown at creation and rotation only, and rotation retires the old one', async () => {
    const created = await admin('POST', '/clients', {
      name: 'Dash',
      redirect_uris: [REDIRECT],
      post_logout_redirect_uris: ['http://127.0.0.1:9/bye'],
    })
    expect(created.status).toBe(201)
    const { client_id: clientId, client_secret: first } = created.body
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const listed = (await admin('GET', '/clients')).body.clients.find(
      (c: { client_id: string }) => c.client_id === clientId,
    )
    expect(listed).toMatchObject({ name: 'Dash', public: false, post_logout_redirect_uris: ['http://127.0.0.1:9/bye'] })
    expect(JSON.stringify(listed)).not.toContain(first)

    const rotated = await admin('POST', `/clients/${clientId}/secret`)
    expect(rotated.body.client_secret).not.toBe(first)
    const revoke = (secret: string) =>
      postForm(`${identity.url}/api/oauth/revoke`, { token: 'x', client_id: clientId, client_secret: secret })
    expect((await revoke(first)).status).toBe(401)
    expect((await revoke(rotated.body.client_secret)).status).toBe(200)

    expect((await admin('DELETE', `/clients/${clientId}`)).status).toBe(200)
    expect((await admin('GET', `/clients/${clientId}`)).status).toBe(404)
  })

  it('rotates the signing key and records every change in the audit log', async () => {
    const rotation = await admin('POST', '/keys/rotate')
    expect(rotation.body).toEqual({ kid: expect.any(String), previousKid: expect.any(String), retiredKid: null })
    const { entries } = (await admin('GET', '/audit?limit=500')).body as {
      entries: Array<{ action: string; actor: { type: string }; ip: string; at: string }>
    }
    const actions = entries.map((entry) => entry.action)
    for (const action of [
      'user.create',
      'user.update',
      'organization.create',
      'organization.rename',
      'membership.add',
      'membership.role',
      'membership.remove',
      'client.create',
      'client.rotate-secret',
      'client.delete',
      'keys.rotate',
    ]) {
      expect(actions).toContain(action)
    }
    expect(entries[0]).toMatchObject({ action: 'keys.rotate', actor: { type: 'admin_token' }, ip: '127.0.0.1' })
    // Refused changes leave no entry: only one user.create per created user.
    expect(actions.filter((action) => action === 'user.create')).toHaveLength(2)
    expect(JSON.stringify(entries)).not.toContain('carl-password-long')
    expect((await admin('GET', '/audit?action=keys.rotate')).body.entries).toHaveLength(1)
  })

  it('refuses no token and bad tokens (401), and users who are not admins or lack the admin scope (403)', async () => {
    expect((await fetch(`${identity.url}/api/v1/admin/users`)).status).toBe(401)
    expect((await admin('GET', '/users', undefined, 'guard_admin_nope')).status).toBe(401)
    expect((await admin('GET', '/users', undefined, 'not-a-jwt')).status).toBe(401)

    const adminClient = await identity.client({
      redirectUris: [REDIRECT],
      firstParty: true,
      allowedScopes: ['openid', 'email', 'admin'],
    })
    // identity.user has role admin: with the admin scope it may, without it it may not.
    const scoped = await obtainTokens(identity, adminClient, { scope: 'openid admin' })
    expect((await admin('GET', '/users', undefined, scoped.access_token)).status).toBe(200)
    const unscoped = await obtainTokens(identity, adminClient, { scope: 'openid' })
    expect((await admin('GET', '/users', undefined, unscoped.access_token)).status).toBe(403)

    await createUser(identity.sql, { email: 'eve@example.org', password: TEST_PASSWORD, name: 'Eve' })
    const eve = { ...identity, user: { ...identity.user, email: 'eve@example.org' } }
    const eveTokens = await obtainTokens(eve, adminClient, { scope: 'openid admin' })
    const refused = await admin('GET', '/users', undefined, eveTokens.access_token)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', detail: expect.stringContaining('role is admin') })
  })
})
