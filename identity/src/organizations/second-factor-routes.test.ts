import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { obtainTokens, startTestIdentity, TEST_PASSWORD, type TestIdentity } from '../oauth/testing.ts'
import { addMember } from '../services/organizations/add-member.ts'
import { createUser } from '../services/users/create.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
let identity: TestIdentity
let ownerToken: string
let memberToken: string

beforeAll(async () => {
  identity = await startTestIdentity()
  const app = await identity.client({ redirectUris: [REDIRECT], firstParty: true })
  ownerToken = (await obtainTokens(identity, app, { scope: 'openid' })).access_token
  const user = await createUser(identity.sql, { email: 'max@example.org', password: TEST_PASSWORD, name: 'Max' })
  await addMember(identity.sql, { organizationSlug: 'acme', userId: user.id, role: 'admin' })
  memberToken = (await obtainTokens({ ...identity, user }, app, { scope: 'openid' })).access_token
}, 180_000)
afterAll(() => identity?.close())

const call = async (method: string, token: string, body?: unknown) => {
  const response = await fetch(`${identity.url}/api/v1/organizations/acme/second-factor`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('an organization’s second-factor requirement (/api/v1/organizations/{org}/second-factor)', () => {
  it('members read it and who has no second factor; only an owner sets it, audited', async () => {
    const read = await call('GET', memberToken)
    expect(read.status).toBe(200)
    expect(read.body.secondFactor).toBe('off')
    expect(read.body.membersWithoutSecondFactor).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: 'max@example.org', role: 'admin' })]),
    )
    expect((await call('PUT', memberToken, { secondFactor: 'passkey' })).status).toBe(403)
    const set = await call('PUT', ownerToken, { secondFactor: 'passkey' })
    expect(set).toMatchObject({ status: 200, body: { secondFactor: 'passkey' } })
    const { rows } = await identity.sql.query<{ details: { secondFactor: string } }>(
      "SELECT details FROM identity.audit_log WHERE action = 'organization.second_factor'",
    )
    expect(rows.map((row) => row.details.secondFactor)).toEqual(['passkey'])
    expect((await call('PUT', ownerToken, { secondFactor: 'off' })).status).toBe(200)
  })

  it('an unknown requirement is a 400 naming the field, and changes nothing', async () => {
    const refused = await call('PUT', ownerToken, { secondFactor: 'sms' })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toContain('secondFactor')
    expect((await call('GET', ownerToken)).body.secondFactor).toBe('off')
  })
})
