import { decodeMonitorConfig, type HttpTarget } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { collectorForTest } from '../test-support.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>

describe('conditions and response-time thresholds through the API', () => {
  let harness: Harness
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${harness.apiKey}` }, ...(payload ? { payload } : {}) })
  const schedule = async (id: string) => decodeMonitorConfig((await harness.ctx.monitors.get(id))!.value!)
  const url = 'https://example.org/health'

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_LOCATIONS: 'fra' })
    app = await buildCollectorApp(harness.ctx)
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('refuses a condition that does not parse with a 400 naming it and the column, and stores nothing', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        '/api/domains',
        { url, conditions: ['[STATUS] == 200', '[STATUS] 200'] },
        'conditions.1: condition 2: expected a comparator (== != <= >= < >) after [STATUS] at column 10',
      ],
      [
        '/api/services',
        { name: 's', protocol: 'https', protocolConfig: { host: 'example.org', conditions: ['len([IP]) > 1'] } },
        'protocolConfig.conditions.0: condition 1: len() takes [BODY] or [HEADERS], not [IP] at column 5',
      ],
      [
        '/api/services',
        {
          name: 's',
          protocol: 'tcp',
          protocolConfig: { host: 'example.org', port: 22, conditions: ['[STATUS] == 200'] },
        },
        'protocolConfig.conditions: not an option of tcp',
      ],
    ]
    for (const [path, payload, message] of cases) {
      const response = await call('POST', path, payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json().message).toContain(message)
    }
    const { rows } = await harness.ctx.sql.query<{ count: string }>('SELECT count(*) FROM monitoring.monitors')
    expect(Number(rows[0]!.count)).toBe(0)
  })

  it('refuses thresholds that could never apply', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/domains', { url, timeout: 5, downAboveMs: 5000 }, 'downAboveMs: must be below the timeout (5000 ms)'],
      [
        '/api/domains',
        { url, degradedAboveMs: 900, downAboveMs: 800 },
        'degradedAboveMs: must be below downAboveMs (800 ms)',
      ],
      [
        '/api/services',
        { name: 's', protocol: 'tcp', protocolConfig: { host: 'example.org', port: 22 }, degradedAboveMs: 0 },
        'degradedAboveMs',
      ],
      [
        '/api/services',
        {
          name: 's',
          protocol: 'tcp',
          protocolConfig: { host: 'example.org', port: 22 },
          timeout: 2,
          degradedAboveMs: 2500,
        },
        'degradedAboveMs: must be below the timeout (2000 ms)',
      ],
    ]
    for (const [path, payload, message] of cases) {
      const response = await call('POST', path, payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json().message).toContain(message)
    }
  })

  it('stores a domain with conditions and thresholds, returns them and schedules them for the probe', async () => {
    const conditions = ['[STATUS] == 200', '[BODY].data.id == 1', '[CERTIFICATE_EXPIRATION] > 48h']
    const created = await call('POST', '/api/domains', { url, conditions, degradedAboveMs: 800, downAboveMs: 3000 })
    expect(created.statusCode).toBe(201)
    const id = created.json().data.id as string
    const read = (await call('GET', `/api/domains/${id}`)).json().data
    expect(read).toMatchObject({ conditions, degradedAboveMs: 800, downAboveMs: 3000 })
    const config = await schedule(id)
    expect(config.downAboveMs).toBe(3000)
    expect((config.target as HttpTarget).conditions).toEqual(conditions)
    expect((config.target as HttpTarget).degradedAboveMs).toBe(800)

    const cleared = await call('PUT', `/api/domains/${id}`, { conditions: null, downAboveMs: null })
    expect(cleared.statusCode).toBe(200)
    const after = (await call('GET', `/api/domains/${id}`)).json().data
    expect(after).not.toHaveProperty('conditions')
    expect(after).not.toHaveProperty('downAboveMs')
    expect(await schedule(id)).not.toHaveProperty('downAboveMs')
    const tooSlow = await call('PUT', `/api/domains/${id}`, { downAboveMs: 700 })
    expect(tooSlow.statusCode).toBe(400)
    expect(tooSlow.json().message).toContain('degradedAboveMs: must be below downAboveMs (700 ms)')
  })

  it('stores thresholds on a service of any protocol and schedules them', async () => {
    const created = await call('POST', '/api/services', {
      name: 'ssh',
      protocol: 'tcp',
      protocolConfig: { host: 'example.org', port: 22 },
      timeout: 10,
      degradedAboveMs: 300,
      downAboveMs: 2000,
    })
    expect(created.statusCode).toBe(201)
    const id = created.json().data.id as string
    const read = (await call('GET', `/api/services/${id}`)).json().data
    expect(read).toMatchObject({ degradedAboveMs: 300, downAboveMs: 2000 })
    expect(await schedule(id)).toMatchObject({ degradedAboveMs: 300, downAboveMs: 2000, target: { kind: 'tcp' } })

    const changed = await call('PUT', `/api/services/${id}`, { degradedAboveMs: null, downAboveMs: 2500 })
    expect(changed.statusCode).toBe(200)
    const config = await schedule(id)
    expect(config).not.toHaveProperty('degradedAboveMs')
    expect(config.downAboveMs).toBe(2500)
    const shorter = await call('PUT', `/api/services/${id}`, { timeout: 2 })
    expect(shorter.statusCode).toBe(400)
    expect(shorter.json().message).toContain('downAboveMs: must be below the timeout (2000 ms)')
  })

  it('describes both in the OpenAPI document', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    const text = JSON.stringify(document)
    expect(text).toContain('"conditions"')
    expect(text).toContain('"downAboveMs"')
    expect(text).toContain('[BODY].data.id == 1')
  })
})
