import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { createApiKey } from '../services/api-keys/create.ts'
import { authenticateWithUsers, collectorAppWithUsers, collectorForTest, userCaller } from '../test-support.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>
const ORG = DEFAULT_ORGANIZATION.id

describe('API keys and permissions', () => {
  let harness: Awaited<ReturnType<typeof collectorAppWithUsers>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const users = {
    alice: userCaller('alice', [ORG]),
    // May manage API keys (as an admin may) but holds only domains:read to delegate.
    reader: userCaller('reader', [ORG], ['domains:read', 'api-keys:write']),
  }
  const as = (token: string) => ({ authorization: `Bearer ${token}` })

  beforeAll(async () => {
    harness = await collectorAppWithUsers(users)
    app = harness.app
  })
  afterAll(() => harness.close())

  it('shows a new key once, stores only its hash, and lists it without the secret', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api-keys',
      headers: as('user:alice'),
      payload: { name: 'ci', scopes: ['read:domains'], expires_at: new Date(Date.now() + 86_400_000).toISOString() },
    })
    expect(created.statusCode).toBe(201)
    const key = created.json().data
    expect(key).toMatchObject({ name: 'ci', permissions: ['domains:read'], last_used_at: null })
    expect(key.key).toMatch(/^guard_/)
    const { rows } = await harness.ctx.sql.query<{ key_hash: string }>(
      'SELECT key_hash FROM monitoring.api_keys WHERE id = $1',
      [key.id],
    )
    expect(rows[0]!.key_hash).not.toContain(key.key)

    expect((await app.inject({ method: 'GET', url: '/api/domains', headers: as(key.key) })).statusCode).toBe(200)
    const listed = (await app.inject({ method: 'GET', url: '/api-keys', headers: as('user:alice') })).json().data
    const entry = listed.find((item: { id: string }) => item.id === key.id)
    expect(entry).toEqual({
      id: key.id,
      name: 'ci',
      prefix: key.prefix,
      permissions: ['domains:read'],
      belongs_to: 'user',
      created_by: 'alice',
      created_at: key.created_at,
      expires_at: key.expires_at,
      last_used_at: expect.any(String),
    })
    expect(JSON.stringify(listed)).not.toContain(key.key)
  })

  it('answers 403 when a key lacks the permission a route needs', async () => {
    const reader = await createApiKey(harness.ctx.sql, {
      organizationId: ORG,
      name: 'r',
      permissions: ['domains:read'],
    })
    const checks: Array<[string, string, number]> = [
      ['GET', '/api/domains', 200],
      ['POST', '/api/domains', 403],
      ['GET', '/api/services', 403],
      ['GET', '/metrics', 403],
      ['GET', '/api-keys', 403],
    ]
    for (const [method, url, status] of checks) {
      const response = await app.inject({
        method: method as 'GET',
        url,
        headers: as(reader.key),
        ...(method === 'POST' ? { payload: { url: 'https://example.org' } } : {}),
      })
      expect(response.statusCode, `${method} ${url}`).toBe(status)
      if (status === 403) expect(response.json()).toMatchObject({ success: false, error: 'FORBIDDEN' })
    }
  })

  it('lets only signed-in users manage keys and never beyond their own permissions', async () => {
    const beyond = await app.inject({
      method: 'POST',
      url: '/api-keys',
      headers: as('user:reader'),
      payload: { name: 'escalate', permissions: ['domains:write'] },
    })
    expect(beyond.statusCode).toBe(403)
    const wildcard = await app.inject({
      method: 'POST',
      url: '/api-keys',
      headers: as('user:reader'),
      payload: { name: 'wild', permissions: ['*:read'] },
    })
    expect(wildcard.statusCode).toBe(403)
    const fine = await app.inject({
      method: 'POST',
      url: '/api-keys',
      headers: as('user:reader'),
      payload: { name: 'ok', permissions: ['domains:read'] },
    })
    expect(fine.statusCode).toBe(201)
  })

  it('stops accepting a key once it is revoked or expired', async () => {
    const created = (
      await app.inject({
        method: 'POST',
        url: '/api-keys',
        headers: as('user:alice'),
        payload: { name: 'short', permissions: ['*:*'] },
      })
    ).json().data
    const removed = await app.inject({ method: 'DELETE', url: `/api-keys/${created.id}`, headers: as('user:alice') })
    expect(removed.statusCode).toBe(200)
    expect((await app.inject({ method: 'GET', url: '/api/domains', headers: as(created.key) })).statusCode).toBe(401)
    expect(
      (await app.inject({ method: 'DELETE', url: `/api-keys/${created.id}`, headers: as('user:alice') })).statusCode,
    ).toBe(404)

    const expiring = await createApiKey(harness.ctx.sql, {
      organizationId: ORG,
      name: 'old',
      permissions: ['*:*'],
      expiresAt: new Date(Date.now() + 50).toISOString(),
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const expired = await app.inject({ method: 'GET', url: '/api/domains', headers: as(expiring.key) })
    expect(expired.statusCode).toBe(401)
    expect(expired.json()).toEqual({ error: 'UNAUTHORIZED', message: expect.any(String) })
  })

  it('refuses an organization the caller does not belong to and accepts one they do', async () => {
    const member = userCaller('member', ['org-a', 'org-b'])
    const multi = await buildCollectorApp(harness.ctx, { authenticate: authenticateWithUsers(harness.ctx, { member }) })
    try {
      const mine = await multi.inject({
        method: 'GET',
        url: '/api/domains?organization=org-b',
        headers: as('user:member'),
      })
      expect(mine.statusCode).toBe(200)
      const theirs = await multi.inject({
        method: 'GET',
        url: `/api/domains?organization=${ORG}`,
        headers: as('user:member'),
      })
      expect(theirs.statusCode).toBe(403)
    } finally {
      await multi.close()
    }
  })
})

describe('rate limits', () => {
  let harness: Harness

  beforeAll(async () => {
    harness = await collectorForTest({
      GUARD_RATE_LIMIT_READ: '3',
      GUARD_RATE_LIMIT_WRITE: '2',
      GUARD_RATE_LIMIT_BULK: '1',
    })
  })
  afterAll(() => harness.close())

  it('sets X-RateLimit headers on every response and answers 429 with retry_after past the limit, across replicas', async () => {
    // Two apps on one PostgreSQL stand for two collector replicas behind a load balancer.
    const replicas = [await buildCollectorApp(harness.ctx), await buildCollectorApp(harness.ctx)]
    try {
      const headers = { authorization: `Bearer ${harness.apiKey}` }
      const statuses: number[] = []
      for (let index = 0; index < 4; index += 1) {
        const response = await replicas[index % 2]!.inject({ method: 'GET', url: '/api/domains', headers })
        statuses.push(response.statusCode)
        expect(response.headers['x-ratelimit-limit']).toBe('3')
        expect(response.headers['x-ratelimit-remaining']).toBe(String(Math.max(0, 2 - index)))
        const reset = Number(response.headers['x-ratelimit-reset'])
        expect(reset).toBeGreaterThan(Date.now() / 1000)
        expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 3600)
        if (response.statusCode === 429) {
          expect(response.json()).toEqual({
            error: 'RATE_LIMIT_EXCEEDED',
            message: expect.any(String),
            retry_after: expect.any(Number),
          })
          expect(response.headers['retry-after']).toBe(String(response.json().retry_after))
        }
      }
      expect(statuses).toEqual([200, 200, 200, 429])

      // Writes and bulk operations have their own budgets; a 404 still carries the headers.
      const write = await replicas[0]!.inject({ method: 'DELETE', url: '/api/domains/nope', headers })
      expect(write.statusCode).toBe(404)
      expect(write.headers['x-ratelimit-limit']).toBe('2')
      const bulk = await replicas[1]!.inject({
        method: 'GET',
        url: '/api/domains/fetch-title?url=http%3A%2F%2F127.0.0.1%3A1',
        headers,
      })
      expect(bulk.headers['x-ratelimit-limit']).toBe('1')
      const bulkAgain = await replicas[0]!.inject({
        method: 'GET',
        url: '/api/domains/fetch-title?url=http%3A%2F%2F127.0.0.1%3A1',
        headers,
      })
      expect(bulkAgain.statusCode).toBe(429)
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()))
    }
  })

  it("counts a domain's icon, which fetches the domain's page, as a bulk operation", async () => {
    const own = await collectorForTest({ GUARD_RATE_LIMIT_BULK: '1' })
    const app = await buildCollectorApp(own.ctx)
    try {
      const headers = { authorization: `Bearer ${own.apiKey}` }
      const created = await app.inject({
        method: 'POST',
        url: '/api/domains',
        headers,
        payload: { url: 'http://127.0.0.1:1/', name: 'Icon' },
      })
      const url = `/api/domains/${created.json().data.id}/icon`
      const first = await app.inject({ method: 'GET', url, headers })
      expect(first.headers['x-ratelimit-limit']).toBe('1')
      const second = await app.inject({ method: 'GET', url, headers })
      expect(second.statusCode).toBe(429)
      expect(second.json().message).toMatch(/bulk/)
    } finally {
      await app.close()
      await own.close()
    }
  })

  it('puts X-RateLimit headers on 401s, unknown paths, health and the OpenAPI document, counted per client IP', async () => {
    const app = await buildCollectorApp(harness.ctx)
    try {
      const unauthenticated = [
        { method: 'GET' as const, url: '/api/domains' },
        { method: 'GET' as const, url: '/api/domains', headers: { authorization: 'Bearer guard_wrong' } },
        { method: 'GET' as const, url: '/no/such/route' },
        { method: 'GET' as const, url: '/api/health' },
        { method: 'GET' as const, url: '/openapi.json' },
      ]
      const remaining: number[] = []
      for (const request of unauthenticated) {
        const response = await app.inject({ ...request, remoteAddress: '203.0.113.7' })
        expect(response.headers['x-ratelimit-limit'], request.url).toBe('1000')
        expect(Number(response.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000)
        remaining.push(Number(response.headers['x-ratelimit-remaining']))
      }
      // One budget per client IP: each of these requests spent one of it.
      expect(remaining).toEqual([999, 998, 997, 996, 995])
      const other = await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '203.0.113.8' })
      expect(other.headers['x-ratelimit-remaining']).toBe('999')
    } finally {
      await app.close()
    }
  })

  it('still answers health (503: PostgreSQL is away), without the headers, when the rate-limit counters cannot be reached', async () => {
    const broken = {
      ...harness.ctx,
      sql: { ...harness.ctx.sql, query: () => Promise.reject(new Error('database unreachable')) },
    } as typeof harness.ctx
    const app = await buildCollectorApp(broken)
    try {
      const response = await app.inject({ method: 'GET', url: '/api/health' })
      // Health tells the truth (PostgreSQL is away: 503), and still answers, without the headers.
      expect(response.statusCode).toBe(503)
      expect(response.json()).toMatchObject({ status: 'unavailable', checks: { relational: 'down' } })
      expect(response.headers['x-ratelimit-limit']).toBeUndefined()
    } finally {
      await app.close()
    }
  })
})

describe('organization rate limit', () => {
  let harness: Harness

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_RATE_LIMIT_READ: '3', GUARD_RATE_LIMIT_ORG_READ: '5' })
  })
  afterAll(() => harness.close())

  it('is shared by every key of the organization, so minting more keys does not multiply it', async () => {
    const app = await buildCollectorApp(harness.ctx)
    try {
      const keys = await Promise.all(
        ['one', 'two', 'three'].map((name) =>
          createApiKey(harness.ctx.sql, { organizationId: ORG, name, permissions: ['domains:read'] }),
        ),
      )
      const outcomes: string[] = []
      for (let index = 0; index < 6; index += 1) {
        const response = await app.inject({
          method: 'GET',
          url: '/api/domains',
          headers: { authorization: `Bearer ${keys[index % 3]!.key}` },
        })
        outcomes.push(`${response.statusCode}/${response.headers['x-ratelimit-limit']}`)
        if (response.statusCode === 429) expect(response.json().message).toMatch(/for the organization/)
      }
      // Each key made two requests, under its own limit of 3; the organization's 5 ran out.
      expect(outcomes.map((outcome) => outcome.split('/')[0])).toEqual(['200', '200', '200', '200', '200', '429'])
      // Headers show whichever limit comes first: the key's 3 at first, the organization's 5 near its end.
      expect(outcomes[0]).toBe('200/3')
      expect(outcomes.at(-1)).toBe('429/5')
    } finally {
      await app.close()
    }
  })
})
