import { decodeMonitorConfig, type HttpTarget, openTargetAuth, probeCredentialsKey } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { collectorForTest } from '../test-support.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>

describe('check options through the API', () => {
  let harness: Harness
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    app.inject({ method, url, headers: headers(), ...(payload ? { payload } : {}) })
  const schedule = async (id: string) => decodeMonitorConfig((await harness.ctx.monitors.get(id))!.value!)

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_LOCATIONS: 'fra,iad' })
    app = await buildCollectorApp(harness.ctx)
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('refuses bad combinations with a 400 naming the field, and stores nothing', async () => {
    const url = 'https://example.org/'
    const domainCases: Array<[Record<string, unknown>, RegExp]> = [
      [{ url, regex: '(' }, /regex: must be a valid regular expression/],
      [{ url, jsonPath: { path: '$.a[' } }, /jsonPath\.path: must be a JSONPath/],
      [{ url, jsonPath: { path: 'status' } }, /jsonPath\.path/],
      [{ url, headers: { Host: 'evil.example' } }, /headers\.Host: Host is set by the probe/],
      [{ url, headers: { 'Content-Length': '3' } }, /headers\.Content-Length/],
      [{ url, headers: { 'bad header': 'x' } }, /headers/],
      [{ url, body: 'x' }, /body: a GET request has no body/],
      [{ url, method: 'HEAD', body: 'x' }, /body: a HEAD request has no body/],
      [{ url, keywordAbsent: true }, /keywordAbsent: needs a keyword/],
      [{ url, expectedStatus: ['2xx'] }, /expectedStatus/],
      [{ url, authType: 'basic' }, /credentials: required for basic/],
      [{ url, authType: 'bearer', credentials: { username: 'ann' } }, /credentials: bearer takes a token/],
      [{ url, credentials: { token: 't' } }, /credentials: authType none takes no credentials/],
      [
        { url, authType: 'bearer', credentials: { token: 't' }, headers: { Authorization: 'x' } },
        /headers\.Authorization/,
      ],
      [{ url, locations: [] }, /locations/],
      [{ url, locations: ['mars'] }, /locations: unknown location mars \(known: fra, iad\)/],
      [{ url, degradedAboveMs: -1 }, /degradedAboveMs/],
      [{ url, method: 'TRACE' }, /method/],
    ]
    for (const [payload, message] of domainCases) {
      const response = await call('POST', '/api/domains', payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json().message, JSON.stringify(payload)).toMatch(message)
    }
    const service = (protocol: string, protocolConfig: Record<string, unknown>) => ({
      name: 's',
      protocol,
      protocolConfig,
    })
    const serviceCases: Array<[Record<string, unknown>, RegExp]> = [
      [service('dns', { host: 'example.org', keyword: 'x' }), /protocolConfig\.keyword: not an option of dns/],
      [service('dns', { host: 'example.org', recordType: 'XYZ' }), /protocolConfig\.recordType/],
      [service('dns', { host: 'example.org', server: 'not-an-ip' }), /protocolConfig\.server/],
      [
        service('tcp', { host: 'example.org', port: 22, warnDays: 3 }),
        /protocolConfig\.warnDays: not an option of tcp/,
      ],
      [service('icmp', { host: 'example.org', count: 50 }), /protocolConfig\.count/],
      [service('https', { host: 'example.org', body: 'x' }), /protocolConfig\.body: a GET request has no body/],
      [service('https', { host: 'example.org', regex: '[' }), /protocolConfig\.regex/],
      [service('http', { host: 'example.org', authType: 'basic' }), /protocolConfig\.credentials: required for basic/],
    ]
    for (const [payload, message] of serviceCases) {
      const response = await call('POST', '/api/services', payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json().message, JSON.stringify(payload)).toMatch(message)
    }
    const { rows } = await harness.ctx.sql.query<{ count: string }>('SELECT count(*) FROM monitoring.monitors')
    expect(Number(rows[0]!.count)).toBe(0)
  })

  it('stores, shows and schedules every HTTP option, merges updates and keeps credentials write-only', async () => {
    const created = await call('POST', '/api/domains', {
      url: 'https://api.example.org/health',
      method: 'POST',
      headers: { 'X-Probe': 'guard' },
      body: '{"ping":true}',
      expectedStatus: [200, '300-302'],
      keyword: 'maintenance',
      keywordAbsent: true,
      regex: '"ok"',
      jsonPath: { path: '$.status', equals: 'ok' },
      followRedirects: false,
      degradedAboveMs: 800,
      ignoreTlsErrors: true,
      isApi: true,
      authType: 'bearer',
      credentials: { token: 'secret-token-1' },
      locations: ['fra'],
      checkInterval: 30,
    })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.body).not.toContain('secret-token-1')
    const id = created.json().data.id
    const detail = (await call('GET', `/api/domains/${id}`)).json().data
    expect(detail).toMatchObject({
      method: 'POST',
      headers: { 'X-Probe': 'guard' },
      body: '{"ping":true}',
      expectedStatus: [200, '300-302'],
      keyword: 'maintenance',
      keywordAbsent: true,
      regex: '"ok"',
      jsonPath: { path: '$.status', equals: 'ok' },
      followRedirects: false,
      degradedAboveMs: 800,
      ignoreTlsErrors: true,
      isApi: true,
      authType: 'bearer',
      credentialsSet: true,
      locations: ['fra'],
      timeout: 29,
    })
    expect(JSON.stringify(detail)).not.toContain('secret-token-1')
    const target = (await schedule(id)).target
    expect(target).toMatchObject({
      kind: 'http',
      method: 'POST',
      keywordAbsent: true,
      expectJson: true,
      auth: { type: 'bearer', token: 'secret-token-1' },
    })
    expect((await schedule(id)).locations).toEqual(['fra'])

    // null removes an option, an absent one stays; a method without a body leaves the body invalid.
    const cleared = await call('PUT', `/api/domains/${id}`, { keyword: null, keywordAbsent: null, locations: ['iad'] })
    expect(cleared.statusCode, cleared.body).toBe(200)
    expect(cleared.json().data.keyword).toBeUndefined()
    expect(cleared.json().data).toMatchObject({ regex: '"ok"', locations: ['iad'], credentialsSet: true })
    expect((await schedule(id)).target).toMatchObject({ auth: { type: 'bearer', token: 'secret-token-1' } })
    const getWithBody = await call('PUT', `/api/domains/${id}`, { method: 'GET' })
    expect(getWithBody.statusCode).toBe(400)
    expect(getWithBody.json().message).toMatch(/body: a GET request has no body/)
    expect((await call('PUT', `/api/domains/${id}`, { method: 'GET', body: null })).statusCode).toBe(200)
    const switched = await call('PUT', `/api/domains/${id}`, { authType: 'basic' })
    expect(switched.statusCode).toBe(400)
    expect(switched.json().message).toMatch(/credentials: required for basic/)
    const basic = await call('PUT', `/api/domains/${id}`, {
      authType: 'basic',
      credentials: { username: 'ann', password: 'pw-2' },
    })
    expect(basic.json().data).toMatchObject({ authType: 'basic', credentialsSet: true })
    expect((await schedule(id)).target).toMatchObject({ auth: { type: 'basic', username: 'ann', password: 'pw-2' } })
    const none = await call('PUT', `/api/domains/${id}`, { authType: 'none' })
    expect(none.json().data).toMatchObject({ authType: 'none', credentialsSet: false })
    expect((await schedule(id)).target).not.toHaveProperty('auth')
  })

  it('takes each protocol’s own options on services and shows them back', async () => {
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      [
        'dns',
        { host: 'example.org', recordType: 'MX', expected: 'mail.example.org', server: '1.1.1.1' },
        { kind: 'dns', hostname: 'example.org', recordType: 'MX', expected: 'mail.example.org', server: '1.1.1.1' },
      ],
      [
        'tls',
        { host: 'example.org', port: 8443, warnDays: 30 },
        { kind: 'tls', host: 'example.org', port: 8443, warnDays: 30 },
      ],
      ['icmp', { host: 'example.org', count: 5 }, { kind: 'icmp', host: 'example.org', count: 5 }],
      [
        'https',
        { host: 'example.org', path: '/status?full=1', keyword: 'ok', method: 'HEAD', expectedStatus: [204] },
        {
          kind: 'http',
          url: 'https://example.org/status?full=1',
          keyword: 'ok',
          method: 'HEAD',
          expectedStatus: [204],
        },
      ],
    ]
    for (const [protocol, protocolConfig, target] of cases) {
      const response = await call('POST', '/api/services', {
        name: protocol,
        protocol,
        protocolConfig,
        locations: ['fra'],
      })
      expect(response.statusCode, response.body).toBe(201)
      const view = response.json().data
      expect(view.protocolConfig).toEqual(protocolConfig)
      expect(view.locations).toEqual(['fra'])
      expect((await schedule(view.id)).target).toEqual(target)
    }
    const http = await call('POST', '/api/services', {
      name: 'api',
      protocol: 'http',
      protocolConfig: { host: 'example.org', authType: 'basic', credentials: { username: 'u', password: 'svc-pw' } },
    })
    expect(http.body).not.toContain('svc-pw')
    expect(http.json().data.protocolConfig).toMatchObject({ authType: 'basic', credentialsSet: true })
    const renamed = await call('PUT', `/api/services/${http.json().data.id}`, {
      protocolConfig: { host: 'example.org', path: '/v2', authType: 'basic' },
    })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect((await schedule(http.json().data.id)).target).toMatchObject({
      url: 'http://example.org/v2',
      auth: { type: 'basic', username: 'u', password: 'svc-pw' },
    })
  })

  it('seals credentials for probes when GUARD_PROBE_CREDENTIALS_KEY is set', async () => {
    const sealedHarness = await collectorForTest({
      GUARD_PROBE_CREDENTIALS_KEY: 'probe-credentials-key-probe-credentials-key',
    })
    const sealedApp = await buildCollectorApp(sealedHarness.ctx)
    try {
      const created = await sealedApp.inject({
        method: 'POST',
        url: '/api/domains',
        headers: { authorization: `Bearer ${sealedHarness.apiKey}` },
        payload: { url: 'https://example.org', authType: 'bearer', credentials: { token: 'kv-token-1' } },
      })
      const entry = (await sealedHarness.ctx.monitors.get(created.json().data.id))!.value!
      expect(new TextDecoder().decode(entry)).not.toContain('kv-token-1')
      const target = decodeMonitorConfig(entry).target
      expect(target).toMatchObject({ sealedAuth: expect.stringMatching(/^v1\./) })
      expect(target).not.toHaveProperty('auth')
      const opened = openTargetAuth(
        target as HttpTarget,
        probeCredentialsKey('probe-credentials-key-probe-credentials-key'),
      )
      expect(opened.auth).toEqual({ type: 'bearer', token: 'kv-token-1' })
    } finally {
      await sealedApp.close()
      await sealedHarness.close()
    }
  })
})
