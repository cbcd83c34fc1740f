import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../../app.ts'
import {
  collectorForTest,
  type FakeAnswer,
  type FakeRequest,
  fakePlatform,
  integrationTablesText,
} from '../../test-support.ts'

const TENANT = 'tenant-1'
const CLIENT = 'client-1'
const SECRET = 'cloud-a-client-secret-7Hq2Lp9Xz'
const SUBSCRIPTION = 'sub-1'
const SUB = `/subscriptions/${SUBSCRIPTION}`

/** cloud-a as Guard sees it: a per-tenant token endpoint and a resource listing behind Bearer tokens. */
function cloudA() {
  const state = {
    issued: [] as string[],
    valid: new Set<string>(),
    expiresIn: 3600,
    down: false,
    failListing: 0,
    hangListing: false,
    foreignNextLink: false,
  }
  const listings: Record<string, unknown[]> = {
    'Microsoft.Web/sites': [
      { id: `${SUB}/rg/web/shop`, name: 'shop', properties: { defaultHostName: 'shop.cloud-a.example' } },
    ],
    'Microsoft.Network/publicIPAddresses': [
      {
        id: `${SUB}/ip/vm1-ip`,
        name: 'vm1-ip',
        properties: {
          ipAddress: '203.0.113.7',
          ipConfiguration: { id: `${SUB}/networkInterfaces/vm1-nic/ipConfigurations/c` },
        },
      },
      { id: `${SUB}/ip/unbound`, name: 'unbound', properties: { ipAddress: '203.0.113.8', ipConfiguration: null } },
    ],
    'Microsoft.Sql/servers': [
      {
        id: `${SUB}/sql/orders`,
        name: 'orders',
        properties: { fullyQualifiedDomainName: 'orders.db.cloud-a.example' },
      },
    ],
    'Microsoft.DBforPostgreSQL/flexibleServers': [
      { id: `${SUB}/pg/users`, name: 'users', properties: { fullyQualifiedDomainName: 'users.pg.cloud-a.example' } },
    ],
    'Microsoft.DBforMySQL/flexibleServers': [],
  }
  const answer = (request: FakeRequest): FakeAnswer => {
    if (state.down) return { status: 503, json: { error: 'unavailable' } }
    if (request.method === 'POST' && request.path === `/${TENANT}/oauth2/v2.0/token`) {
      const { grant_type, client_id, client_secret, scope } = request.body
      if (grant_type !== 'client_credentials' || !scope?.endsWith('/.default')) {
        return { status: 400, json: { error: 'invalid_request' } }
      }
      if (client_id !== CLIENT || client_secret !== SECRET) {
        return { status: 401, json: { error: 'invalid_client', error_description: `bad secret ${client_secret}` } }
      }
      const token = `access-${state.issued.length + 1}-for-cloud-a-tests`
      state.issued.push(token)
      state.valid.add(token)
      return { status: 200, json: { token_type: 'Bearer', access_token: token, expires_in: state.expiresIn } }
    }
    if (request.method === 'POST') return { status: 400, json: { error: 'invalid_request' } }
    const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '')
    if (!state.valid.has(token)) return { status: 401, json: { error: { code: 'ExpiredAuthenticationToken' } } }
    if (!request.query.get('api-version')) return { status: 400, json: { error: { code: 'MissingApiVersion' } } }
    if (request.path === SUB) return { status: 200, json: { subscriptionId: SUBSCRIPTION, displayName: 'Production' } }
    if (request.path.startsWith('/subscriptions/')) {
      if (!request.path.startsWith(`${SUB}/`)) return { status: 404, json: { error: { code: 'SubscriptionNotFound' } } }
      if (state.hangListing) return 'hang'
      if (state.failListing > 0) {
        state.failListing -= 1
        return { status: 503, json: {} }
      }
      const kind = request.path.slice(`${SUB}/providers/`.length)
      const value = listings[kind]
      if (!value) return { status: 404, json: {} }
      // The web apps come in two pages, as cloud-a pages long listings.
      if (kind === 'Microsoft.Web/sites' && !request.query.get('page')) {
        const next = state.foreignNextLink
          ? 'http://198.51.100.1/next'
          : `${fake.url}${request.path}?api-version=x&page=2`
        return { status: 200, json: { value, nextLink: next } }
      }
      if (kind === 'Microsoft.Web/sites') {
        return {
          status: 200,
          json: {
            value: [
              { id: `${SUB}/rg/web/blog`, name: 'blog', properties: { defaultHostName: 'blog.cloud-a.example' } },
            ],
          },
        }
      }
      return { status: 200, json: { value } }
    }
    return { status: 404, json: {} }
  }
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  return {
    state,
    async start() {
      fake = await fakePlatform(answer)
      return fake
    },
  }
}

describe('cloud-a: link with client credentials, list, monitor', () => {
  const platform = cloudA()
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })
  const link = (body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/cloud-a/accounts', headers: headers(), payload: body })
  const goodBody = { tenantId: TENANT, clientId: CLIENT, clientSecret: SECRET, subscriptionId: SUBSCRIPTION }
  const accountCount = async () =>
    (await harness.ctx.sql.query('SELECT id FROM monitoring.integration_accounts')).rows.length

  beforeAll(async () => {
    fake = await platform.start()
    harness = await collectorForTest({
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_CLOUD_A_TOKEN_URL: fake.url,
      GUARD_CLOUD_A_API_URL: fake.url,
      GUARD_INTEGRATION_TIMEOUT_MS: '400',
    })
    app = await buildCollectorApp(harness.ctx)
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
    await fake.close()
  })
  beforeEach(async () => {
    Object.assign(platform.state, {
      down: false,
      failListing: 0,
      hangListing: false,
      foreignNextLink: false,
      expiresIn: 3600,
    })
    await harness.ctx.sql.query('DELETE FROM monitoring.integration_accounts')
    fake.requests.length = 0
  })

  it('refuses wrong credentials with a 400 naming the OAuth error, storing nothing and echoing nothing', async () => {
    const response = await link({ ...goodBody, clientSecret: 'wrong-secret-wrong-secret' })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ error: 'PROVIDER_CREDENTIALS_REJECTED' })
    expect(response.json().message).toContain('invalid_client')
    expect(response.body).not.toContain('wrong-secret')
    expect(await accountCount()).toBe(0)
  })

  it('refuses a subscription the principal cannot see with a 400, storing nothing', async () => {
    const response = await link({ ...goodBody, subscriptionId: 'sub-unknown' })
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toMatch(/does not know that subscription/)
    expect(await accountCount()).toBe(0)
  })

  it('answers 502 when cloud-a is down or unreachable, storing nothing', async () => {
    platform.state.down = true
    const down = await link(goodBody)
    expect(down.statusCode).toBe(502)
    expect(down.json()).toMatchObject({ error: 'BAD_GATEWAY', message: expect.stringMatching(/cloud-a answered 503/) })
    // The token request is a POST: never retried.
    expect(fake.requests).toHaveLength(1)

    const unreachable = await buildCollectorApp({
      ...harness.ctx,
      env: { ...harness.ctx.env, GUARD_CLOUD_A_TOKEN_URL: 'http://127.0.0.1:9' },
    })
    const refused = await unreachable.inject({
      method: 'POST',
      url: '/api/cloud-a/accounts',
      headers: headers(),
      payload: goodBody,
    })
    await unreachable.close()
    expect(refused.statusCode).toBe(502)
    expect(refused.json().message).toMatch(/cloud-a could not be reached \(ECONNREFUSED\)/)
    expect(await accountCount()).toBe(0)
  })

  it('refuses bodies that are not credentials before calling cloud-a', async () => {
    for (const body of [
      {},
      { ...goodBody, tenantId: '../x' },
      { ...goodBody, extra: 1 },
      { ...goodBody, clientSecret: '' },
    ]) {
      const response = await link(body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
    }
    expect(fake.requests).toHaveLength(0)
  })

  it('links, stores the secret and token sealed, and shows only a masked hint', async () => {
    const response = await link(goodBody)
    expect(response.statusCode).toBe(201)
    const account = response.json().data
    expect(account).toMatchObject({
      name: 'Production',
      tenantId: TENANT,
      clientId: CLIENT,
      subscriptionId: SUBSCRIPTION,
      secretHint: '••••p9Xz',
      monitors: 0,
    })
    expect(response.body).not.toContain(SECRET)
    const list = await app.inject({ method: 'GET', url: '/api/cloud-a/accounts', headers: headers() })
    expect(list.json().data).toEqual([account])
    expect(list.body).not.toContain(SECRET)
    const stored = await integrationTablesText(harness.ctx)
    expect(stored).toContain(account.id)
    expect(stored).not.toContain(SECRET)
    for (const token of platform.state.issued) expect(stored).not.toContain(token)
    const again = await link(goodBody)
    expect(again.statusCode).toBe(409)
  })

  it('lists web apps, virtual machines with public addresses and databases across pages', async () => {
    const accountId = (await link(goodBody)).json().data.id
    const response = await app.inject({
      method: 'GET',
      url: `/api/cloud-a/accounts/${accountId}/services`,
      headers: headers(),
    })
    expect(response.statusCode).toBe(200)
    const items = response.json().data as Array<{ name: string; kind: string; target: unknown; monitor: unknown }>
    expect(items.map(({ name, kind, target }) => ({ name, kind, target }))).toEqual(
      expect.arrayContaining([
        { name: 'shop', kind: 'web-app', target: { type: 'domain', url: 'https://shop.cloud-a.example' } },
        { name: 'blog', kind: 'web-app', target: { type: 'domain', url: 'https://blog.cloud-a.example' } },
        { name: 'vm1-ip', kind: 'vm', target: { type: 'service', protocol: 'tcp', host: '203.0.113.7', port: 22 } },
        {
          name: 'orders',
          kind: 'database',
          target: { type: 'service', protocol: 'tcp', host: 'orders.db.cloud-a.example', port: 1433 },
        },
        {
          name: 'users',
          kind: 'database',
          target: { type: 'service', protocol: 'tcp', host: 'users.pg.cloud-a.example', port: 5432 },
        },
      ]),
    )
    expect(items).toHaveLength(5)
    expect(items.every((item) => item.monitor === null)).toBe(true)
    // The token from linking was cached: listing asked for no new one.
    expect(fake.requests.filter((request) => request.method === 'POST')).toHaveLength(1)
  })

  it('gets a new token when the cached one is refused or expiring, and stores it sealed again', async () => {
    const accountId = (await link(goodBody)).json().data.id
    const before = await harness.ctx.sql.query<{ sealed_access_token: string; token_version: number }>(
      'SELECT sealed_access_token, token_version FROM monitoring.integration_accounts WHERE id = $1',
      [accountId],
    )
    platform.state.valid.clear()
    const listed = await app.inject({
      method: 'GET',
      url: `/api/cloud-a/accounts/${accountId}/services`,
      headers: headers(),
    })
    expect(listed.statusCode).toBe(200)
    const after = await harness.ctx.sql.query<{ sealed_access_token: string; token_version: number }>(
      'SELECT sealed_access_token, token_version FROM monitoring.integration_accounts WHERE id = $1',
      [accountId],
    )
    expect(after.rows[0]!.token_version).toBe(before.rows[0]!.token_version + 1)
    expect(after.rows[0]!.sealed_access_token).not.toBe(before.rows[0]!.sealed_access_token)
    expect(await integrationTablesText(harness.ctx)).not.toContain(platform.state.issued.at(-1)!)

    // A token about to expire is renewed before use rather than refused mid-listing.
    platform.state.expiresIn = 5
    platform.state.valid.clear()
    await app.inject({ method: 'GET', url: `/api/cloud-a/accounts/${accountId}/services`, headers: headers() })
    const grants = () => fake.requests.filter((request) => request.method === 'POST').length
    const counted = grants()
    await app.inject({ method: 'GET', url: `/api/cloud-a/accounts/${accountId}/services`, headers: headers() })
    expect(grants()).toBe(counted + 1)
  })

  it('says when cloud-a no longer accepts the stored secret', async () => {
    const accountId = (await link(goodBody)).json().data.id
    platform.state.valid.clear()
    await harness.ctx.sql.query(`UPDATE monitoring.integration_accounts SET sealed_secrets = $1 WHERE id = $2`, [
      await (await import('../secrets.ts')).sealSecrets(harness.ctx.env, { clientSecret: 'rotated-away-at-cloud-a' }),
      accountId,
    ])
    const response = await app.inject({
      method: 'GET',
      url: `/api/cloud-a/accounts/${accountId}/services`,
      headers: headers(),
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toMatch(/no longer accepts the stored credentials; link the account again/)
  })

  it('retries a failed listing once, then answers 502; a hanging one times out', async () => {
    const accountId = (await link(goodBody)).json().data.id
    const url = `/api/cloud-a/accounts/${accountId}/services`
    platform.state.failListing = 1
    expect((await app.inject({ method: 'GET', url, headers: headers() })).statusCode).toBe(200)

    platform.state.failListing = 100
    fake.requests.length = 0
    const failing = await app.inject({ method: 'GET', url, headers: headers() })
    expect(failing.statusCode).toBe(502)
    expect(failing.json().message).toMatch(/cloud-a answered 503/)
    const webApps = fake.requests.filter((request) => request.path.endsWith('Microsoft.Web/sites'))
    expect(webApps).toHaveLength(2)

    platform.state.failListing = 0
    platform.state.hangListing = true
    const started = Date.now()
    const hanging = await app.inject({ method: 'GET', url, headers: headers() })
    expect(hanging.statusCode).toBe(502)
    expect(hanging.json().message).toMatch(/no answer within 400 ms/)
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('does not follow a pagination link to another host', async () => {
    const accountId = (await link(goodBody)).json().data.id
    platform.state.foreignNextLink = true
    const response = await app.inject({
      method: 'GET',
      url: `/api/cloud-a/accounts/${accountId}/services`,
      headers: headers(),
    })
    expect(response.statusCode).toBe(502)
    expect(response.json().message).toMatch(/pagination link to another host/)
  })

  it('monitors a web app as a domain and a database as a tcp service, once each; deleting the link keeps them', async () => {
    const accountId = (await link(goodBody)).json().data.id
    const items = (
      await app.inject({ method: 'GET', url: `/api/cloud-a/accounts/${accountId}/services`, headers: headers() })
    ).json().data as Array<{ id: string; name: string }>
    const shop = items.find((item) => item.name === 'shop')!
    const orders = items.find((item) => item.name === 'orders')!
    const monitor = (itemId: string, payload?: object) =>
      app.inject({
        method: 'POST',
        url: `/api/cloud-a/accounts/${accountId}/services/${itemId}/monitor`,
        headers: headers(),
        ...(payload ? { payload } : {}),
      })

    const domain = await monitor(shop.id)
    expect(domain.statusCode, domain.body).toBe(201)
    expect(domain.json().data.monitor).toMatchObject({
      type: 'domain',
      domain: { url: 'https://shop.cloud-a.example', name: 'shop', checkInterval: 60 },
    })
    const service = await monitor(orders.id, { checkInterval: 30, name: 'Orders DB' })
    expect(service.statusCode).toBe(201)
    expect(service.json().data.monitor).toMatchObject({
      type: 'service',
      service: {
        name: 'Orders DB',
        protocol: 'tcp',
        protocolConfig: { host: 'orders.db.cloud-a.example', port: 1433 },
        checkInterval: 30,
      },
    })
    expect((await monitor(shop.id)).statusCode).toBe(409)
    expect((await monitor('no-such-item')).statusCode).toBe(404)

    const listed = (
      await app.inject({ method: 'GET', url: `/api/cloud-a/accounts/${accountId}/services`, headers: headers() })
    ).json().data as Array<{ id: string; monitor: unknown }>
    expect(listed.find((item) => item.id === shop.id)!.monitor).toEqual({
      type: 'domain',
      id: domain.json().data.monitor.id,
    })
    const accounts = await app.inject({ method: 'GET', url: '/api/cloud-a/accounts', headers: headers() })
    expect(accounts.json().data[0].monitors).toBe(2)

    // Deleting the domain frees the item to be monitored again.
    await app.inject({ method: 'DELETE', url: `/api/domains/${domain.json().data.monitor.id}`, headers: headers() })
    const again = await monitor(shop.id)
    expect(again.statusCode).toBe(201)

    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/cloud-a/accounts/${accountId}`,
      headers: headers(),
    })
    expect(removed.json()).toEqual({ success: true, data: { id: accountId, deleted: true } })
    expect(await integrationTablesText(harness.ctx)).not.toContain(accountId)
    const kept = await app.inject({
      method: 'GET',
      url: `/api/services/${service.json().data.monitor.id}`,
      headers: headers(),
    })
    expect(kept.statusCode).toBe(200)
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/cloud-a/accounts/${accountId}`, headers: headers() }))
        .statusCode,
    ).toBe(404)
  })
})
