import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundledCatalog } from '../services/catalog/static.ts'
import { type PlatformTestIdentity, startPlatformIdentity } from './testing.ts'

let identity: PlatformTestIdentity

beforeAll(async () => {
  identity = await startPlatformIdentity({
    extend: (app) => {
      app.get('/api/v1/test/explode', async () => {
        throw new Error('connection to 10.1.2.3 refused: password=hunter2')
      })
    },
  })
})
afterAll(() => identity?.close())

const get = (path: string, init?: RequestInit) => fetch(`${identity.url}${path}`, init)
const json = async (path: string) => {
  const response = await get(path)
  return { response, body: (await response.json()) as Record<string, unknown> }
}
const stable = (body: Record<string, unknown>) => ({ ...body, timestamp: undefined })

describe('identity public API', () => {
  it('unversioned aliases return the same payloads as their /api/v1 paths', async () => {
    for (const [alias, v1] of [
      ['/api', '/api/v1'],
      ['/api/plans', '/api/v1/plans'],
      ['/api/changelog?limit=2', '/api/v1/changelog?limit=2'],
      ['/api/health', '/api/v1/health'],
    ] as const) {
      const [a, b] = await Promise.all([json(alias), json(v1)])
      expect(a.response.status, alias).toBe(200)
      expect(stable(a.body), alias).toEqual(stable(b.body))
    }
  })

  it('the API index names the version, versioning, errors, rate limit and absolute links', async () => {
    const { body } = await json('/api/v1')
    expect(body).toMatchObject({
      version: '1.0.0',
      versioning: { strategy: 'path', current: 'v1', prefix: '/api/v1' },
      errors: { type: 'application/problem+json' },
      rateLimit: { headers: ['RateLimit', 'RateLimit-Policy', 'Retry-After'] },
    })
    for (const link of Object.values(body.links as Record<string, string>))
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:/)
  })

  it('plans come from the database with source db, plans, add-ons, bundles, features and caps', async () => {
    const { body } = await json('/api/v1/plans')
    expect(body.source).toBe('db')
    expect((body.plans as unknown[]).length).toBeGreaterThan(0)
    expect(body).toHaveProperty('addons')
    expect(body).toHaveProperty('bundles')
    expect(body).toHaveProperty('features.areas')
    expect(body).toHaveProperty('addOnCaps.pro')
    expect(Date.parse(body.updatedAt as string)).not.toBeNaN()
  })

  it('changelog lists entries newest first with Markdown content', async () => {
    const { body } = await json('/api/v1/changelog')
    const entries = body.entries as Array<{ createdTime: string; contentMd: string }>
    expect(entries.length).toBeGreaterThan(1)
    const times = entries.map((entry) => Date.parse(entry.createdTime))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(entries[0]?.contentMd).toMatch(/^## /)
    expect(body.lastUpdated).toBe(entries[0]?.createdTime)
  })

  it('changelog app filters by product slug and limit caps the count', async () => {
    const filtered = (await json('/api/v1/changelog?app=identity')).body.entries as Array<{ app: string }>
    expect(filtered.length).toBeGreaterThan(0)
    expect(filtered.every((entry) => entry.app === 'identity')).toBe(true)
    expect(((await json('/api/v1/changelog?limit=1')).body.entries as unknown[]).length).toBe(1)
    expect(((await json('/api/v1/changelog?limit=200')).body.entries as unknown[]).length).toBeGreaterThan(1)
  })

  it('changelog appsOnly lists the product slugs', async () => {
    const { body } = await json('/api/v1/changelog?appsOnly=true')
    expect(body.apps).toEqual(['identity', 'monitoring', 'platform'])
    expect(body).not.toHaveProperty('entries')
  })

  it('changelog limit out of 1..200 or not an integer is a 400 problem with code, detail and hint', async () => {
    for (const limit of ['0', '201', '1.5', 'ten', '']) {
      const response = await get(`/api/v1/changelog?limit=${limit}`)
      expect(response.status, limit).toBe(400)
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      const body = (await response.json()) as Record<string, string>
      expect(body.code).toBe('VALIDATION_ERROR')
      expect(body.detail).toMatch(/limit/)
      expect(body.hint).toBeTruthy()
    }
  })

  it('health sends API-Version and RateLimit', async () => {
    const response = await get('/api/v1/health')
    expect(response.headers.get('api-version')).toBe('1.0.0')
    expect(response.headers.get('ratelimit')).toMatch(/^"public";r=\d+;t=\d+$/)
    expect(await response.json()).toMatchObject({ status: 'ok', service: 'identity' })
  })

  it('unknown paths are a 404 problem whose hint points to GET /api/v1', async () => {
    const response = await get('/api/v1/nothing-here')
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(await response.json()).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      hint: expect.stringContaining('GET /api/v1'),
    })
  })

  it('a known path with another method is a 405 problem with an Allow header', async () => {
    const response = await get('/api/v1/plans', { method: 'DELETE' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    expect(await response.json()).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' })
    expect((await get('/mcp')).headers.get('allow')).toBe('POST')
  })

  it('a 500 is a problem without internals', async () => {
    const response = await get('/api/v1/test/explode')
    expect(response.status).toBe(500)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    const text = await response.text()
    expect(text).not.toMatch(/10\.1\.2\.3|hunter2|Error:|at /)
    expect(JSON.parse(text)).toMatchObject({
      status: 500,
      code: 'INTERNAL_ERROR',
      hint: expect.stringContaining('/api/v1/health'),
    })
  })

  it('llms.txt is plain Markdown with the documents and a deprecated-operations section', async () => {
    const response = await get('/llms.txt')
    expect(response.headers.get('content-type')).toMatch(/^text\/markdown/)
    const text = await response.text()
    expect(text).toMatch(/^# Guard\n\n> /)
    expect(text).toContain(`${identity.url}/openapi.json`)
    expect(text).toContain('## Deprecated operations')
  })
})

// Last: these close the store for good.
describe('identity without its database', () => {
  it('health never touches the database', async () => {
    await identity.sql.close()
    const response = await get('/api/v1/health')
    expect(response.status).toBe(200)
  })

  it('plans fall back to the bundled static catalog with source static when the database is unreachable', async () => {
    const { response, body } = await json('/api/v1/plans')
    expect(response.status).toBe(200)
    expect(body.source).toBe('static')
    expect(body.plans).toEqual(bundledCatalog.document.plans)
    expect(body.updatedAt).toBe(bundledCatalog.updatedAt)
  })

  it('health stays 200 (the catalog is still served) and says the database is down', async () => {
    await identity.dependencies.refresh()
    const { response, body } = await json('/api/v1/health')
    expect(response.status).toBe(200)
    expect(body).toMatchObject({ status: 'degraded', service: 'identity', checks: { relational: 'down' } })
  })

  it('a request that needs the database answers 503 with Retry-After and the error fields, not 500', async () => {
    const response = await get('/api/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=someone&client_secret=secret',
    })
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', error: 'temporarily_unavailable' })
    expect(JSON.stringify(body)).not.toMatch(/PGlite|closed/)
  })
})
