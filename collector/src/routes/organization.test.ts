import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  collectorAppWithUsers,
  type FakeAnswer,
  type FakeRequest,
  fakePlatform,
  injectAsUser,
  userCaller,
} from '../test-support.ts'

const OTHER_ORG = '00000000-0000-7000-8000-0000000000aa'
const member = {
  id: 'm1',
  organizationId: DEFAULT_ORGANIZATION.id,
  userId: 'u-bob',
  email: 'bob@example.org',
  name: 'Bob',
  role: 'member',
  createdAt: '2026-01-01T00:00:00.000Z',
}

describe('organization settings through the collector (identity with the user’s own token)', () => {
  let identity: Awaited<ReturnType<typeof fakePlatform>>
  let collector: Awaited<ReturnType<typeof collectorAppWithUsers>>
  let answer: (request: FakeRequest) => FakeAnswer = () => ({ status: 200, json: {} })
  /** What the collector asked for the user; its own service calls (plans, health) go to /internal/. */
  const userCalls = () => identity.requests.filter((request) => !request.path.includes('/internal/'))
  const lastCall = () => userCalls().at(-1)

  beforeAll(async () => {
    identity = await fakePlatform((request) => answer(request))
    collector = await collectorAppWithUsers(
      {
        ada: userCaller('ada', [DEFAULT_ORGANIZATION.id, OTHER_ORG]),
        adaInOther: userCaller('ada', [OTHER_ORG, DEFAULT_ORGANIZATION.id]),
      },
      { GUARD_IDENTITY_URL: identity.url },
    )
  })
  afterAll(async () => {
    await collector?.close()
    await identity?.close()
  })

  it("lists the members of the request's organization, asking identity with the caller's token", async () => {
    answer = () => ({ status: 200, json: { members: [member] } })
    const listed = await injectAsUser(collector.app, 'ada', 'GET', '/api/organization/members')
    expect(listed).toEqual({
      status: 200,
      body: {
        success: true,
        data: [{ userId: 'u-bob', email: 'bob@example.org', name: 'Bob', role: 'member', createdAt: member.createdAt }],
      },
    })
    const sent = lastCall()
    expect(sent?.path).toBe(`/api/v1/organizations/${DEFAULT_ORGANIZATION.id}/members`)
    expect(sent?.headers.authorization).toBe('Bearer user:ada')

    // The organization the caller is scoped to (X-Organization-Id, resolved by authentication), never one named in the request.
    expect((await injectAsUser(collector.app, 'adaInOther', 'GET', '/api/organization/members')).status).toBe(200)
    expect(lastCall()?.path).toBe(`/api/v1/organizations/${OTHER_ORG}/members`)
  })

  it("passes identity's refusals on with their code and words", async () => {
    answer = () => ({
      status: 409,
      json: { status: 409, code: 'CONFLICT', detail: 'an organization needs at least one owner' },
    })
    const refused = await injectAsUser(collector.app, 'ada', 'PATCH', '/api/organization/members/u-ann', {
      role: 'viewer',
    })
    expect(refused).toEqual({
      status: 409,
      body: { success: false, error: 'CONFLICT', message: 'an organization needs at least one owner' },
    })
    expect(lastCall()).toMatchObject({ method: 'PATCH', body: { role: 'viewer' } })

    answer = () => ({ status: 403, json: { status: 403, code: 'FORBIDDEN', detail: 'the current password is wrong' } })
    const wrong = await injectAsUser(collector.app, 'ada', 'POST', '/api/account/password', {
      currentPassword: 'nope',
      newPassword: 'a-long-enough-password',
    })
    expect(wrong).toMatchObject({ status: 403, body: { error: 'FORBIDDEN', message: 'the current password is wrong' } })
    expect(lastCall()?.path).toBe('/api/v1/account/password')
  })

  it('answers an invitation with its one-time link and removes a member as a DELETE does', async () => {
    answer = (request) =>
      request.method === 'POST'
        ? {
            status: 201,
            json: {
              invitation: {
                id: 'inv1',
                organizationId: DEFAULT_ORGANIZATION.id,
                email: 'new@example.org',
                role: 'admin',
                invitedBy: 'ada',
                createdAt: member.createdAt,
                expiresAt: member.createdAt,
                status: 'pending',
              },
              link: 'http://identity/invitations/accept?token=t',
              emailed: false,
            },
          }
        : { status: 200, json: member }
    const invited = await injectAsUser(collector.app, 'ada', 'POST', '/api/organization/invitations', {
      email: 'new@example.org',
      role: 'admin',
    })
    expect(invited.status).toBe(201)
    expect(invited.body.data).toMatchObject({ link: 'http://identity/invitations/accept?token=t', emailed: false })
    const removed = await injectAsUser(collector.app, 'ada', 'DELETE', '/api/organization/members/u-bob')
    expect(removed).toEqual({ status: 200, body: { success: true, data: { id: 'u-bob', deleted: true } } })
  })

  it('refuses API keys, which act for no user at identity', async () => {
    const before = userCalls().length
    const response = await collector.app.inject({
      method: 'GET',
      url: '/api/organization/members',
      headers: { authorization: `Bearer ${collector.apiKey}` },
    })
    expect(response.statusCode).toBe(403)
    expect(userCalls().length).toBe(before)
  })

  it('is 503 when identity does not answer, and 502 when it answers something else', async () => {
    answer = () => ({ status: 200, json: { members: 'nope' } })
    expect((await injectAsUser(collector.app, 'ada', 'GET', '/api/organization/members')).status).toBe(502)
    answer = () => ({ status: 500, json: { code: 'INTERNAL_ERROR', detail: 'boom' } })
    expect((await injectAsUser(collector.app, 'ada', 'GET', '/api/organization')).status).toBe(502)
    answer = () => 'hang'
    await identity.close()
    expect((await injectAsUser(collector.app, 'ada', 'GET', '/api/organization')).status).toBe(503)
  })
})
