import { createLogger, openTestRelationalStore, type RelationalStore, signServiceToken } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildIdentityApp } from '../../app.ts'
import { migrateIdentity } from '../../server.ts'
import { addMember } from '../organizations/add-member.ts'
import { createOrganization } from '../organizations/create.ts'
import { createUser } from '../users/create.ts'
import { updateUser } from '../users/update.ts'
import { changeMemberRole } from './change-role.ts'
import { removeMember } from './remove.ts'

const log = createLogger({ name: 'member-role-test', level: 'silent', pretty: false })
const SECRET = 'member-role-test-secret-key-member-role-test'
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

const roleOf = async (organizationId: string, userId: string, secret = SECRET) =>
  app.inject({
    method: 'GET',
    url: `/api/v1/internal/organizations/${organizationId}/members/${userId}`,
    headers: { authorization: `Bearer ${await signServiceToken(secret, 'collector')}` },
  })

describe("GET /api/v1/internal/organizations/{id}/members/{userId} (bounding a user's API keys)", () => {
  it('answers the role now, and null once the user is removed from the organization or disabled', async () => {
    const organization = await createOrganization(sql, { name: 'Keys', slug: 'keys' })
    const password = 'correct horse battery staple'
    const adam = await createUser(sql, { email: 'adam@keys.test', password, name: 'Adam' })
    const olive = await createUser(sql, { email: 'olive@keys.test', password, name: 'Olive' })
    await addMember(sql, { organizationSlug: 'keys', userId: olive.id, role: 'owner' })
    await addMember(sql, { organizationSlug: 'keys', userId: adam.id, role: 'admin' })
    const answer = async (userId: string) => (await roleOf(organization.id, userId)).json()

    expect(await answer(adam.id)).toEqual({ organizationId: organization.id, userId: adam.id, role: 'admin' })
    await changeMemberRole(sql, { organization: 'keys', userId: adam.id, changes: { role: 'viewer' } })
    expect((await answer(adam.id)).role).toBe('viewer')
    await removeMember(sql, { organization: 'keys', userId: adam.id })
    expect((await answer(adam.id)).role).toBeNull()

    await updateUser(sql, { id: olive.id, changes: { disabled: true } })
    expect((await answer(olive.id)).role).toBeNull()
    expect((await answer('no-such-user')).role).toBeNull()
  })

  it('is for Guard processes holding the shared secret only', async () => {
    expect((await roleOf('any', 'any', 'another-secret-key-another-secret-key')).statusCode).toBe(401)
    const anonymous = await app.inject({ method: 'GET', url: '/api/v1/internal/organizations/any/members/any' })
    expect(anonymous.statusCode).toBe(401)
  })
})
