import { DEFAULT_ORGANIZATION, GuardError } from '@guard/shared'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { buildCollectorApp } from '../../app.ts'
import { collectorAppWithUsers, userCaller } from '../../test-support.ts'
import { permissionsOfRole } from '../auth/permissions.ts'
import type { MembershipSource } from '../memberships/source.ts'
import { createApiKey } from './create.ts'
import { verifyApiKey } from './verify.ts'

const ORG = DEFAULT_ORGANIZATION.id
const TTL_MS = 200

describe('an API key acts with at most its creator’s current rights', () => {
  let harness: Awaited<ReturnType<typeof collectorAppWithUsers>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  /** Identity's answers, as the test sets them; `undefined` stands for identity not answering. */
  const roles = new Map<string, string | null | undefined>()
  const members: MembershipSource = {
    roleOf: async (_organization, user) => {
      const role = roles.get(user)
      if (role === undefined) throw new GuardError('SERVICE_UNAVAILABLE', 'identity cannot be reached')
      return role
    },
  }
  const owner = { ...userCaller('olive', [ORG], permissionsOfRole('owner')), role: 'owner' }
  const admin = { ...userCaller('adam', [ORG], permissionsOfRole('admin')), role: 'admin' }
  const as = (token: string) => ({ authorization: `Bearer ${token}` })
  const mint = async (user: string, body: object) => {
    const response = await app.inject({ method: 'POST', url: '/api-keys', headers: as(`user:${user}`), payload: body })
    return { status: response.statusCode, body: response.json() }
  }
  const verify = (key: string) => verifyApiKey({ ctx: harness.ctx, input: { key } })

  beforeAll(async () => {
    harness = await collectorAppWithUsers({ olive: owner, adam: admin }, { GUARD_READ_CACHE_TTL_MS: String(TTL_MS) })
    app = harness.app
    harness.ctx.members = members
  })
  beforeEach(() => {
    roles.clear()
    roles.set('olive', 'owner')
    roles.set('adam', 'admin')
  })
  afterAll(() => harness.close())

  it('a user’s key holds what both it and its creator’s role allow now', async () => {
    const { key } = await createApiKey(harness.ctx.sql, {
      organizationId: ORG,
      name: 'everything',
      permissions: ['*:*'],
      createdBy: 'adam',
    })
    expect((await verify(key)).permissions).toEqual(permissionsOfRole('admin'))
    roles.set('adam', 'viewer')
    expect((await verify(key)).permissions).toEqual(permissionsOfRole('viewer'))
  })

  it('a key whose creator was removed from the organization or disabled is refused with 401', async () => {
    const created = await mint('adam', { name: 'deploys', permissions: ['domains:write', 'domains:read'] })
    expect(created.status).toBe(201)
    const { key } = created.body.data
    const post = () =>
      app.inject({ method: 'POST', url: '/api/domains', headers: as(key), payload: { url: 'https://k.example' } })
    expect((await post()).statusCode).toBe(201)
    // Identity answers null for a user who left the organization or was disabled.
    roles.set('adam', null)
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 50))
    const refused = await post()
    expect(refused.statusCode).toBe(401)
    expect(refused.json()).toEqual({ error: 'UNAUTHORIZED', message: expect.stringContaining('no longer has access') })
    await expect(verify(key)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('identity not answering is 503 for a user’s key, never a guess that they are still a member', async () => {
    const { key } = await createApiKey(harness.ctx.sql, {
      organizationId: ORG,
      name: 'k',
      permissions: ['domains:read'],
      createdBy: 'nobody-known',
    })
    await expect(verify(key)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
  })

  it('only an owner creates a key that belongs to the organization, and it outlives its creator', async () => {
    const refused = await mint('adam', { name: 'robot', permissions: ['domains:read'], belongs_to: 'organization' })
    expect(refused).toMatchObject({ status: 403, body: { error: 'FORBIDDEN' } })
    const created = await mint('olive', { name: 'robot', permissions: ['*:*'], belongs_to: 'organization' })
    expect(created).toMatchObject({ status: 201, body: { data: { belongs_to: 'organization', created_by: 'olive' } } })
    roles.set('olive', null)
    expect((await verify(created.body.data.key)).permissions).toEqual(['*:*'])
  })

  it('the key list says whom each key belongs to and who created it', async () => {
    const mine = await mint('adam', { name: 'listed', permissions: ['domains:read'] })
    const listed = await app.inject({ method: 'GET', url: '/api-keys', headers: as('user:olive') })
    const entries = listed.json().data as Array<{
      id: string
      name: string
      belongs_to: string
      created_by: string | null
    }>
    expect(entries.find((entry) => entry.id === mine.body.data.id)).toMatchObject({
      belongs_to: 'user',
      created_by: 'adam',
    })
    // The bootstrap key, created before any user, is the organization's.
    expect(entries.find((entry) => entry.name === 'bootstrap')).toMatchObject({
      belongs_to: 'organization',
      created_by: null,
    })
  })
})
