import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../../app.ts'
import { createApiKey } from '../../services/api-keys/create.ts'
import {
  collectorBesideFakePlatform,
  type FakeAnswer,
  type FakeRequest,
  fakePlatform,
  integrationAccountCount,
  integrationTablesText,
} from '../../test-support.ts'
import { checkSealingKey } from '../accounts.ts'

const API_KEY = 'selfhost-b-api-key-0123456789abcd'

/** selfhost-b as Guard sees it: an instance at its own URL whose API takes a Bearer API key. */
function selfhostB() {
  const state = { down: false, calls: 0 }
  const answer = (request: FakeRequest): FakeAnswer => {
    state.calls += 1
    if (state.down) return { status: 500, json: { message: 'database is down' } }
    if (request.headers.authorization !== `Bearer ${API_KEY}`)
      return { status: 401, json: { message: 'Unauthenticated.' } }
    if (request.path === '/platform/api/v1/teams/current') return { status: 200, json: { id: 0, name: 'Root Team' } }
    if (request.path === '/platform/api/v1/applications') {
      return {
        status: 200,
        json: [
          { uuid: 'app-1', name: 'website', fqdn: 'https://www.selfhost-b.example', status: 'running' },
          {
            uuid: 'app-2',
            name: 'api',
            fqdn: 'https://api.selfhost-b.example,http://api-old.selfhost-b.example',
            status: 'running',
          },
          { uuid: 'app-3', name: 'worker', fqdn: null, status: 'running' },
        ],
      }
    }
    if (request.path === '/platform/api/v1/servers') {
      return { status: 200, json: [{ uuid: 'srv-1', name: 'edge', ip: '198.51.100.20', port: 22 }] }
    }
    return { status: 404, json: { message: 'Not found.' } }
  }
  return { state, answer }
}

describe('selfhost-b: link with an API key, list, monitor', () => {
  const platform = selfhostB()
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let harness: Awaited<ReturnType<typeof collectorBesideFakePlatform>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })
  const link = (body: Record<string, unknown>, on = app) =>
    on.inject({ method: 'POST', url: '/api/selfhost-b/instances', headers: headers(), payload: body })
  const goodBody = () => ({ name: 'Home lab', url: `${fake.url}/platform/`, apiKey: API_KEY })
  const instanceCount = () => integrationAccountCount(harness.ctx)

  beforeAll(async () => {
    fake = await fakePlatform(platform.answer)
    harness = await collectorBesideFakePlatform(fake, { GUARD_INTEGRATION_TIMEOUT_MS: '1000' })
    app = harness.app
  })
  afterAll(() => harness.close())
  beforeEach(async () => {
    platform.state.down = false
    await harness.ctx.sql.query('DELETE FROM monitoring.integration_accounts')
  })

  it('refuses a wrong API key with a 400 and stores nothing', async () => {
    const response = await link({ ...goodBody(), apiKey: 'not-the-key-not-the-key' })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({
      error: 'PROVIDER_CREDENTIALS_REJECTED',
      message: expect.stringMatching(/selfhost-b refused the credentials/),
    })
    expect(response.body).not.toContain('not-the-key')
    expect(await instanceCount()).toBe(0)
  })

  it('answers 502 when the instance fails, and 502 when nothing listens, storing nothing', async () => {
    platform.state.down = true
    platform.state.calls = 0
    const failing = await link(goodBody())
    expect(failing.statusCode).toBe(502)
    expect(failing.json().message).toMatch(/selfhost-b answered 500; nothing was changed/)
    expect(failing.body).not.toContain('database is down')
    // A read: tried twice.
    expect(platform.state.calls).toBe(2)
    const closed = await link({ ...goodBody(), url: 'http://127.0.0.1:9' })
    expect(closed.statusCode).toBe(502)
    expect(closed.json().message).toMatch(/could not be reached/)
    expect(await instanceCount()).toBe(0)
  })

  it('refuses a private instance address unless the operator allows private targets', async () => {
    const guarded = await buildCollectorApp({
      ...harness.ctx,
      env: { ...harness.ctx.env, GUARD_ALLOW_PRIVATE_TARGETS: false },
    })
    const response = await link(goodBody(), guarded)
    await guarded.close()
    expect(response.statusCode).toBe(422)
    expect(response.json()).toMatchObject({ error: 'TARGET_NOT_ALLOWED', message: expect.stringMatching(/loopback/) })
    expect(await instanceCount()).toBe(0)
  })

  it('refuses URLs with credentials, queries or other schemes', async () => {
    for (const url of ['ftp://x.example', 'https://user:pw@x.example', 'https://x.example/?a=1', 'x.example', '']) {
      const response = await link({ ...goodBody(), url })
      expect(response.statusCode, url).toBe(400)
    }
  })

  it('links, keeps the key sealed, lists applications and hosts, and monitors them', async () => {
    const linked = await link(goodBody())
    expect(linked.statusCode).toBe(201)
    const instance = linked.json().data
    expect(instance).toMatchObject({
      name: 'Home lab',
      platformName: 'Coolify',
      url: `${fake.url}/platform`,
      secretHint: '••••abcd',
      monitors: 0,
    })
    expect(linked.body).not.toContain(API_KEY)
    const stored = await integrationTablesText(harness.ctx)
    expect(stored).not.toContain(API_KEY)
    const list = await app.inject({ method: 'GET', url: '/api/selfhost-b/instances', headers: headers() })
    expect(list.json().data).toEqual([instance])
    expect(list.body).not.toContain(API_KEY)

    const resources = await app.inject({
      method: 'GET',
      url: `/api/selfhost-b/instances/${instance.id}/resources`,
      headers: headers(),
    })
    expect(resources.statusCode).toBe(200)
    const items = resources.json().data as Array<{ id: string; name: string; kind: string; target: unknown }>
    expect(items.map(({ name, kind, target }) => ({ name, kind, target }))).toEqual([
      { name: 'website', kind: 'application', target: { type: 'domain', url: 'https://www.selfhost-b.example' } },
      {
        name: 'api (api.selfhost-b.example)',
        kind: 'application',
        target: { type: 'domain', url: 'https://api.selfhost-b.example' },
      },
      {
        name: 'api (api-old.selfhost-b.example)',
        kind: 'application',
        target: { type: 'domain', url: 'http://api-old.selfhost-b.example' },
      },
      { name: 'edge', kind: 'host', target: { type: 'service', protocol: 'tcp', host: '198.51.100.20', port: 22 } },
    ])
    expect(resources.body).not.toContain(API_KEY)

    const monitor = (itemId: string) =>
      app.inject({
        method: 'POST',
        url: `/api/selfhost-b/instances/${instance.id}/resources/${itemId}/monitor`,
        headers: headers(),
      })
    const website = await monitor(items[0]!.id)
    expect(website.statusCode).toBe(201)
    expect(website.json().data.monitor.domain).toMatchObject({ url: 'https://www.selfhost-b.example', name: 'website' })
    const edge = await monitor(items[3]!.id)
    expect(edge.statusCode).toBe(201)
    expect(edge.json().data.monitor.service).toMatchObject({
      name: 'edge',
      protocolConfig: { host: '198.51.100.20', port: 22 },
    })

    // Once the instance stops answering, monitoring from it says so; the monitors stay.
    platform.state.down = true
    const monitorCount = async () => {
      const domains = await app.inject({ method: 'GET', url: '/api/domains', headers: headers() })
      const services = await app.inject({ method: 'GET', url: '/api/services', headers: headers() })
      return domains.json().pagination.total + services.json().data.length
    }
    const monitorsBefore = await monitorCount()
    const down = await monitor(items[1]!.id)
    expect(down.statusCode).toBe(502)
    expect(await monitorCount()).toBe(monitorsBefore)
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/selfhost-b/instances/${instance.id}`,
      headers: headers(),
    })
    expect(removed.statusCode).toBe(200)
    const domain = await app.inject({
      method: 'GET',
      url: `/api/domains/${website.json().data.monitor.id}`,
      headers: headers(),
    })
    expect(domain.statusCode).toBe(200)
  })

  it('names the product behind each neutral path, in the platform list and the OpenAPI descriptions', async () => {
    const platforms = await app.inject({ method: 'GET', url: '/api/integrations', headers: headers() })
    expect(platforms.statusCode).toBe(200)
    expect(
      platforms.json().data.map(({ id, name, path, items }: Record<string, string>) => ({ id, name, path, items })),
    ).toEqual([
      { id: 'cloud-a', name: 'Microsoft Azure', path: '/api/cloud-a/accounts', items: 'services' },
      { id: 'selfhost-b', name: 'Coolify', path: '/api/selfhost-b/instances', items: 'resources' },
      { id: 'webhost-c', name: 'Vercel', path: '/api/webhost-c/accounts', items: 'projects' },
    ])
    const openapi = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    expect(openapi.paths['/api/selfhost-b/instances'].get.description).toMatch(/^Linked Coolify \(selfhost-b\)/)
    expect(openapi.paths['/api/cloud-a/accounts'].post.description).toContain('Microsoft Azure (cloud-a)')
    expect(openapi.paths['/api/webhost-c/accounts/{accountId}/projects'].get.description).toContain(
      'Vercel (webhost-c)',
    )
  })

  it('needs integrations:read to list and integrations:write to link, and counts links and monitors as writes', async () => {
    const key = (permissions: string[]) =>
      createApiKey(harness.ctx.sql, { organizationId: DEFAULT_ORGANIZATION.id, name: 'k', permissions }).then(
        (k) => k.key,
      )
    const reader = await key(['integrations:read'])
    const domainsOnly = await key(['domains:*'])
    const writer = await key(['integrations:*'])
    const as = (token: string) => ({ authorization: `Bearer ${token}` })
    const listed = await app.inject({ method: 'GET', url: '/api/selfhost-b/instances', headers: as(reader) })
    expect(listed.statusCode).toBe(200)
    const forbidden = await app.inject({
      method: 'POST',
      url: '/api/selfhost-b/instances',
      headers: as(reader),
      payload: goodBody(),
    })
    expect(forbidden.statusCode).toBe(403)
    expect(forbidden.json().message).toBe('Missing permission integrations:write')
    expect(
      (await app.inject({ method: 'GET', url: '/api/selfhost-b/instances', headers: as(domainsOnly) })).statusCode,
    ).toBe(403)

    const limited = await buildCollectorApp({
      ...harness.ctx,
      env: {
        ...harness.ctx.env,
        GUARD_RATE_LIMIT_WRITE: 2,
        // The organization's shared budget is not what this test is about; earlier tests spent some of it.
        GUARD_RATE_LIMIT_ORG_WRITE: 1000,
      },
    })
    const linked = await limited.inject({
      method: 'POST',
      url: '/api/selfhost-b/instances',
      headers: as(writer),
      payload: goodBody(),
    })
    expect(linked.statusCode).toBe(201)
    const items = await limited.inject({
      method: 'GET',
      url: `/api/selfhost-b/instances/${linked.json().data.id}/resources`,
      headers: as(writer),
    })
    const monitored = await limited.inject({
      method: 'POST',
      url: `/api/selfhost-b/instances/${linked.json().data.id}/resources/${items.json().data[0].id}/monitor`,
      headers: as(writer),
    })
    expect(monitored.statusCode).toBe(201)
    expect(monitored.headers['x-ratelimit-remaining']).toBe('0')
    const third = await limited.inject({
      method: 'DELETE',
      url: `/api/selfhost-b/instances/${linked.json().data.id}`,
      headers: as(writer),
    })
    await limited.close()
    expect(third.statusCode).toBe(429)
  })

  it('refuses to start, and answers a clear 500, when GUARD_SECRET_KEY does not open the stored secrets', async () => {
    expect((await link(goodBody())).statusCode).toBe(201)
    const otherKey = {
      ...harness.ctx,
      env: { ...harness.ctx.env, GUARD_SECRET_KEY: 'another-secret-key-another-secret-key' },
    }
    await expect(checkSealingKey(otherKey)).rejects.toThrow(/GUARD_SECRET_KEY/)
    const wrong = await buildCollectorApp(otherKey)
    const instance = (await app.inject({ method: 'GET', url: '/api/selfhost-b/instances', headers: headers() })).json()
      .data[0]
    const response = await wrong.inject({
      method: 'GET',
      url: `/api/selfhost-b/instances/${instance.id}/resources`,
      headers: headers(),
    })
    await wrong.close()
    expect(response.statusCode).toBe(500)
    expect(response.json().message).toMatch(/GUARD_SECRET_KEY is not the key they were sealed with/)
    await checkSealingKey(harness.ctx)
  })
})
