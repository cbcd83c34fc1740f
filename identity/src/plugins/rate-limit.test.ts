import { createFastify, createLogger, openTestRelationalStore, type RelationalStore } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildIdentityApp } from '../app.ts'
import { migrateIdentity } from '../server.ts'
import { registerRateLimit } from './rate-limit.ts'

const log = createLogger({ name: 'rate-limit-test', level: 'silent', pretty: false })
let sql: RelationalStore

beforeAll(async () => {
  sql = await openTestRelationalStore()
  await migrateIdentity(sql)
})
afterAll(() => sql?.close())

const appWith = (platform: {
  trustedProxies?: string[]
  rateLimit?: { name: string; limit: number; windowSeconds: number }
}) => buildIdentityApp({ log, platform: { sql, ...platform } })

describe('rate limit public', () => {
  it('public allows 120 requests per 60 s per client IP, then 429 with Retry-After', async () => {
    const app = await appWith({})
    const from = (remoteAddress: string) => app.inject({ method: 'GET', url: '/api/v1', remoteAddress })
    for (let i = 1; i <= 120; i++) {
      const response = await from('192.0.2.1')
      expect(response.statusCode).toBe(200)
      expect(response.headers['ratelimit-policy']).toBe('"public";q=120;w=60')
      expect(response.headers.ratelimit).toMatch(new RegExp(`^"public";r=${120 - i};t=\\d+$`))
    }
    const refused = await from('192.0.2.1')
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(refused.json()).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' })
    // Another client keeps its own quota.
    expect((await from('192.0.2.2')).statusCode).toBe(200)
    await app.close()
  })

  it('rate limit headers are sent on every public catalog endpoint', async () => {
    const app = await appWith({})
    for (const url of ['/api', '/api/v1/plans', '/api/changelog', '/openapi.json', '/llms.txt']) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.headers.ratelimit, url).toBeDefined()
      expect(response.headers['ratelimit-policy'], url).toBeDefined()
    }
    await app.close()
  })

  it('health reports RateLimit without spending quota', async () => {
    const app = await appWith({ rateLimit: { name: 'public', limit: 1, windowSeconds: 60 } })
    for (let i = 0; i < 3; i++) {
      const health = await app.inject({ method: 'GET', url: '/api/v1/health' })
      expect(health.statusCode).toBe(200)
      expect(health.headers.ratelimit).toMatch(/^"public";r=1;t=\d+$/)
    }
    expect((await app.inject({ method: 'GET', url: '/api/v1' })).statusCode).toBe(200)
    await app.close()
  })

  it('X-Forwarded-For is honoured only from a trusted proxy', async () => {
    const app = await appWith({
      trustedProxies: ['10.0.0.0/8'],
      rateLimit: { name: 'public', limit: 1, windowSeconds: 60 },
    })
    const request = (remoteAddress: string, forwardedFor: string) =>
      app.inject({ method: 'GET', url: '/api/v1', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } })
    // Through the proxy, two clients are two quotas.
    expect((await request('10.0.0.5', '203.0.113.1')).statusCode).toBe(200)
    expect((await request('10.0.0.5', '203.0.113.2')).statusCode).toBe(200)
    expect((await request('10.0.0.5', '203.0.113.1')).statusCode).toBe(429)
    // From outside, a forged header changes nothing: the socket address is the client.
    expect((await request('198.51.100.7', '203.0.113.3')).statusCode).toBe(200)
    expect((await request('198.51.100.7', '203.0.113.4')).statusCode).toBe(429)
    await app.close()
  })

  it('the window resets after its 60 seconds', async () => {
    let now = 1_000_000
    const app = createFastify({ logger: log })
    registerRateLimit(app, { name: 'public', limit: 2, windowSeconds: 60 }, () => now)
    app.get('/x', { config: { rateLimit: 'count' } }, async () => ({ ok: true }))
    const hit = () => app.inject({ method: 'GET', url: '/x' })
    expect((await hit()).statusCode).toBe(200)
    now += 30_000
    expect((await hit()).headers.ratelimit).toBe('"public";r=0;t=30')
    const refused = await hit()
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['retry-after']).toBe('30')
    now += 30_000
    expect((await hit()).statusCode).toBe(200)
    await app.close()
  })
})
