import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { obtainTokens, startTestIdentity, TEST_PASSWORD, type TestIdentity } from '../oauth/testing.ts'
import type { MembershipRole } from '../services/organizations/add-member.ts'
import { addMember } from '../services/organizations/add-member.ts'
import { createUser } from '../services/users/create.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
let identity: TestIdentity
let ownerToken: string

beforeAll(async () => {
  identity = await startTestIdentity()
  const app = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
  ownerToken = (await obtainTokens(identity, app, { scope: 'openid' })).access_token
})
afterAll(() => identity?.close())

const call = async (method: string, path: string, token: string, body?: unknown) => {
  const response = await fetch(`${identity.url}/api/v1/organizations/acme${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** A user in Acme with `role`, and a first-party access token of theirs. */
async function memberWithToken(email: string, role: MembershipRole) {
  const user = await createUser(identity.sql, { email, password: TEST_PASSWORD, name: email.split('@')[0]! })
  await addMember(identity.sql, { organizationSlug: 'acme', userId: user.id, role })
  const app = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
  const token = (await obtainTokens({ ...identity, user }, app, { scope: 'openid' })).access_token
  return { id: user.id, token }
}

const audit = async (action: string) =>
  (
    await identity.sql.query<{ actor: string }>(
      'SELECT actor FROM identity.audit_log WHERE action = $1 ORDER BY at DESC LIMIT 1',
      [action],
    )
  ).rows[0]?.actor

describe('an organization managed by its own members (/api/v1/organizations/{org})', () => {
  it('members read it and its members; only an owner renames it', async () => {
    const viewer = await memberWithToken('vera@example.org', 'viewer')
    const read = await call('GET', '', viewer.token)
    expect(read).toMatchObject({ status: 200, body: { slug: 'acme', myRole: 'viewer' } })
    const members = await call('GET', '/members', viewer.token)
    expect(members.status).toBe(200)
    expect(members.body.members).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: 'vera@example.org', role: 'viewer' })]),
    )

    expect((await call('PATCH', '', viewer.token, { name: 'Vera Inc' })).status).toBe(403)
    const renamed = await call('PATCH', '', ownerToken, { name: 'Acme Corp' })
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Acme Corp', myRole: 'owner' } })
    expect(await audit('organization.rename')).toBe('ann@example.org')
  })

  it('owners change roles and remove anyone; admins only below owner; members nobody', async () => {
    const admin = await memberWithToken('adele@example.org', 'admin')
    const member = await memberWithToken('moe@example.org', 'member')
    const other = await memberWithToken('otto@example.org', 'member')

    expect((await call('PATCH', `/members/${other.id}`, member.token, { role: 'viewer' })).status).toBe(403)
    expect((await call('DELETE', `/members/${other.id}`, member.token)).status).toBe(403)

    expect(await call('PATCH', `/members/${other.id}`, admin.token, { role: 'viewer' })).toMatchObject({
      status: 200,
      body: { userId: other.id, role: 'viewer' },
    })
    expect((await call('PATCH', `/members/${other.id}`, admin.token, { role: 'owner' })).status).toBe(403)
    expect((await call('PATCH', `/members/${identity.user.id}`, admin.token, { role: 'member' })).status).toBe(403)
    expect((await call('DELETE', `/members/${identity.user.id}`, admin.token)).status).toBe(403)
    expect((await call('DELETE', `/members/${other.id}`, admin.token)).status).toBe(200)
    expect(await audit('membership.remove')).toBe('adele@example.org')

    expect((await call('PATCH', `/members/${member.id}`, ownerToken, { role: 'owner' })).status).toBe(200)
    expect((await call('DELETE', `/members/${member.id}`, ownerToken)).status).toBe(200)
    expect((await call('GET', '/members', member.token)).status).toBe(403)
  })

  it('the last owner can neither be demoted nor removed (409)', async () => {
    const demoted = await call('PATCH', `/members/${identity.user.id}`, ownerToken, { role: 'admin' })
    expect(demoted).toMatchObject({ status: 409, body: { code: 'CONFLICT' } })
    expect((await call('DELETE', `/members/${identity.user.id}`, ownerToken)).status).toBe(409)
  })

  it("a third-party application's token manages nothing, and reads nothing either", async () => {
    const thirdParty = await identity.client({ name: 'Helpful app', redirectUris: [REDIRECT] })
    const token = (await obtainTokens(identity, thirdParty, { scope: 'openid read' })).access_token
    expect((await call('GET', '/members', token)).status).toBe(403)
    expect((await call('PATCH', '', token, { name: 'Pwned' })).status).toBe(403)
    expect((await call('GET', '/members', 'not-a-token')).status).toBe(401)
  })
})
