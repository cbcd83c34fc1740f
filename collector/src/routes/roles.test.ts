import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { buildCollectorApp } from '../app.ts'
import { permissionsOfRole } from '../services/auth/permissions.ts'
import { collectorAppWithUsers, userCaller } from '../test-support.ts'

const ORG = DEFAULT_ORGANIZATION.id
const WRITES = ['post', 'put', 'patch', 'delete']

/** Membership roles as identity's token carries them, mapped by the production table. */
const users = Object.fromEntries(
  ['viewer', 'member', 'admin', 'owner'].map((role) => [role, userCaller(role, [ORG], permissionsOfRole(role))]),
)

describe('membership roles in the collector', () => {
  let harness: Awaited<ReturnType<typeof collectorAppWithUsers>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const as = (role: string) => ({ authorization: `Bearer user:${role}` })

  beforeAll(async () => {
    harness = await collectorAppWithUsers(users)
    app = harness.app
  })
  afterAll(() => harness.close())

  it('a viewer reads domains and gets 403 on every write route the OpenAPI document lists', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/domains', headers: as('viewer') })).statusCode).toBe(200)
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>
    }
    const writes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => WRITES.includes(method))
        .map((method) => ({
          method: method.toUpperCase(),
          url: path.replace(/\{[^}]+\}/g, '0190d3c2-0000-7000-8000-000000000000'),
        })),
    )
    expect(writes.length).toBeGreaterThan(5)
    const answers = await Promise.all(
      writes.map(async (route) => {
        const response = await app.inject({
          method: route.method as 'POST',
          url: route.url,
          headers: as('viewer'),
          payload: {},
        })
        return `${route.method} ${route.url} ${response.statusCode}`
      }),
    )
    // POST /agent takes a device token, never a user's: a user token is not even a credential there,
    // nor on the MCP endpoint, which verifies tokens itself (the users here are a test seam).
    // Chat conversations are the user's own, whatever their role, and the toolbox only reads
    // (toolbox:read): the empty body is what is refused. The console's sign-out ends a browser
    // session, which a Bearer caller has not: it is sent home. A heartbeat's ping takes no credential
    // but its token, and these are no token; the same holds for an acknowledge link (no token: 400)
    // and a service's callback to a channel (no such channel: 404); a private page's password form
    // takes no credential but the password, and an empty body is refused (400). The organization and account routes are identity's
    // rules, asked with the user's own token (organization.test.ts, and identity's own tests of who
    // may rename or manage members): here, with no identity running, an empty body is refused and a
    // DELETE finds identity away; a viewer's own password and sessions are theirs to change.
    // Subscribing to a status page and following a subscriber's link take no credential: an empty
    // body or a missing token is what is refused.
    const delegated = (method: string, url: string) =>
      url.startsWith('/api/organization') || url.startsWith('/api/account/')
        ? method === 'DELETE'
          ? 503
          : 400
        : undefined
    const expected = (method: string, url: string) =>
      delegated(method, url) ??
      (['/agent', '/mcp', '/api/mcp'].includes(url)
        ? 401
        : url.startsWith('/ping/') || url.startsWith('/hooks/')
          ? 404
          : url === '/ack' || url.startsWith('/status/') || url.endsWith('/subscribe')
            ? 400
            : url === '/api/chat/conversations' || url.startsWith('/api/toolbox/') || url === '/api/config/plan'
              ? 400
              : url === '/auth/logout'
                ? 303
                : 403)
    expect(answers).toEqual(writes.map((route) => `${route.method} ${route.url} ${expected(route.method, route.url)}`))
  })

  it('a member writes monitors but not API keys; an admin and an owner manage API keys too', async () => {
    const domain = await app.inject({
      method: 'POST',
      url: '/api/domains',
      headers: as('member'),
      payload: { url: 'https://roles.example' },
    })
    expect(domain.statusCode).toBe(201)
    const key = { name: 'ci', permissions: ['domains:read'] }
    expect(
      (await app.inject({ method: 'POST', url: '/api-keys', headers: as('member'), payload: key })).statusCode,
    ).toBe(403)
    expect((await app.inject({ method: 'GET', url: '/api-keys', headers: as('member') })).statusCode).toBe(200)
    for (const role of ['admin', 'owner']) {
      const created = await app.inject({ method: 'POST', url: '/api-keys', headers: as(role), payload: key })
      expect(created.statusCode, role).toBe(201)
    }
  })

  it('a member plans and exports guard.yaml but does not apply it; an admin and an owner apply it', async () => {
    const document = { version: 1, tags: [{ id: 'roles', color: '#123456' }] }
    const plan = await app.inject({ method: 'POST', url: '/api/config/plan', headers: as('member'), payload: document })
    expect(plan.statusCode).toBe(200)
    expect((await app.inject({ method: 'GET', url: '/api/config/export', headers: as('member') })).statusCode).toBe(200)
    const refused = await app.inject({
      method: 'POST',
      url: '/api/config/apply',
      headers: as('member'),
      payload: document,
    })
    expect(refused.statusCode).toBe(403)
    for (const role of ['admin', 'owner']) {
      const applied = await app.inject({
        method: 'POST',
        url: '/api/config/apply',
        headers: as(role),
        payload: document,
      })
      expect(applied.statusCode, role).toBe(200)
    }
  })

  it('a viewer reads a heartbeat’s run log and daily history (heartbeats:read)', async () => {
    const heartbeat = await app.inject({
      method: 'POST',
      url: '/api/heartbeats',
      headers: as('owner'),
      payload: { name: 'Roles job', every: 3600 },
    })
    expect(heartbeat.statusCode).toBe(201)
    const id = heartbeat.json().data.id
    const daily = await app.inject({ method: 'GET', url: `/api/heartbeats/${id}/daily?days=7`, headers: as('viewer') })
    expect(daily.statusCode).toBe(200)
    expect(daily.json().data).toHaveLength(7)
    const pings = await app.inject({ method: 'GET', url: `/api/heartbeats/${id}/pings`, headers: as('viewer') })
    expect(pings.statusCode).toBe(200)
  })

  it('every role reads the protocol catalog (GET /api/protocols)', async () => {
    for (const role of ['viewer', 'member', 'admin', 'owner']) {
      const response = await app.inject({ method: 'GET', url: '/api/protocols', headers: as(role) })
      expect(response.statusCode, role).toBe(200)
      expect(
        response.json().data.map((protocol: { kind: string }) => protocol.kind),
        role,
      ).toContain('udp')
    }
  })

  it('maps each role to the permissions the README documents', () => {
    expect(permissionsOfRole('viewer')).toEqual(['*:read', 'chat:write'])
    expect(permissionsOfRole('member')).toEqual([
      '*:read',
      'chat:write',
      'domains:write',
      'services:write',
      'synthetics:write',
      'devices:write',
      'groups:write',
      'incidents:write',
    ])
    expect(permissionsOfRole('admin')).toEqual([
      ...permissionsOfRole('member'),
      'api-keys:write',
      'status-pages:write',
      'integrations:write',
      'notifications:write',
      'config:write',
    ])
    expect(permissionsOfRole('owner')).toEqual(['*:*'])
    expect(permissionsOfRole('stranger')).toEqual([])
  })
})
