import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net'
import { Writable } from 'node:stream'
import type { Stoppable } from '@guard/shared'
import { pino } from 'pino'
import { generate } from 'selfsigned'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runMonitorCommand } from '../bin/commands/monitor.ts'
import { buildCollectorApp } from '../collector/src/app.ts'
import { consumeHeartbeats } from '../collector/src/ingest/consume-heartbeats.ts'
import { consumeResults } from '../collector/src/ingest/consume-results.ts'
import { createIngestMetrics } from '../collector/src/ingest/metrics.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { answerRequests } from '../probe/src/requests.ts'
import { type RunningProbe, startProbe } from '../probe/src/server.ts'
import { type DnsFixture, startDnsFixture } from '../probe/src/testing/dns-server.ts'
import { closedPort, closeServer, listenLocal } from '../probe/src/testing/fixtures.ts'
import { pingBinary } from '../probe/src/testing/ping.ts'
import { testProbeEnv } from '../probe/src/testing/probe-env.ts'

const PASSWORD = 'pw-Zq81-never-shown'
const TOKEN = 'tok-Xr55-never-shown'

/** Every log line of the collector and the probes, to prove credentials never reach one. */
const logLines: string[] = []
const capture = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk))
    done()
  },
})
const log = pino({ level: 'trace' }, capture)

const authorizations: string[] = []

function route(request: IncomingMessage, response: ServerResponse) {
  const url = request.url ?? '/'
  let body = ''
  request.on('data', (chunk) => {
    body += chunk
  })
  request.on('end', () => {
    if (url === '/ok') return response.end('hello world')
    if (url === '/json') {
      response.setHeader('content-type', 'application/json')
      return response.end(JSON.stringify({ status: 'ok', items: [1, 2] }))
    }
    if (url === '/text-json') return response.end(JSON.stringify({ status: 'ok' }))
    if (url === '/emoji-name') {
      response.setHeader('content-type', 'application/json')
      return response.end(JSON.stringify({ name: `${'a'.repeat(198)}😀` }))
    }
    if (url === '/status/503') {
      response.statusCode = 503
      return response.end('maintenance')
    }
    if (url === '/slow') return setTimeout(() => response.end('slow hello'), 300)
    if (url === '/redirect') {
      response.statusCode = 302
      response.setHeader('location', '/ok')
      return response.end()
    }
    if (url === '/echo') {
      const good = request.method === 'POST' && body === 'ping' && request.headers['x-probe'] === 'yes'
      response.statusCode = good ? 200 : 400
      return response.end(good ? 'pong' : 'bad request')
    }
    if (url.startsWith('/auth/')) {
      authorizations.push(request.headers.authorization ?? '')
      const expected =
        url === '/auth/basic' ? `Basic ${Buffer.from(`ann:${PASSWORD}`).toString('base64')}` : `Bearer ${TOKEN}`
      response.statusCode = request.headers.authorization === expected ? 200 : 401
      return response.end()
    }
    response.statusCode = 404
    response.end()
  })
}

/**
 * Every check option through the API, run by real probes on one bus, results stored by the real
 * ingest: for each option a target that passes and one that fails for exactly that reason.
 */
describe('monitor options, locations and test checks end to end', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let http: Server
  let https: Server
  let tcp: TcpServer
  let dns: DnsFixture
  let base: string
  let secureBase: string
  let tcpPort: number
  const probes: Record<string, RunningProbe> = {}
  const consumers: Stoppable[] = []
  const headers = () => ({ authorization: `Bearer ${harness.apiKey}` })

  beforeAll(async () => {
    harness = await collectorForTest({
      GUARD_LOCATIONS: 'fra,iad,sin,ams',
      GUARD_PROBE_OFFLINE_AFTER_SECONDS: '3',
      GUARD_MANUAL_CHECK_TIMEOUT_SECONDS: '3',
    })
    harness.ctx.log = log
    app = await buildCollectorApp(harness.ctx)
    const ingest = await consumeResults(harness.ctx, { stored: 0, deadLettered: 0, batches: 0 }, createIngestMetrics())
    consumers.push({ stop: () => ingest.stop() }, await consumeHeartbeats(harness.ctx))
    http = createHttpServer(route)
    base = `http://127.0.0.1:${await listenLocal(http)}`
    const pems = await generate([{ name: 'commonName', value: 'guard-fixture' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    })
    https = createHttpsServer({ key: pems.private, cert: pems.cert }, route)
    secureBase = `https://127.0.0.1:${await listenLocal(https)}`
    tcp = createTcpServer((socket) => socket.end())
    tcpPort = await listenLocal(tcp as unknown as Server)
    dns = await startDnsFixture({ 'shop.test': [{ type: 'A', name: 'shop.test', ttl: 60, data: '192.0.2.10' }] })
    // A probe at `ams` that keeps the default target guard: private addresses are refused.
    const guarded = await answerRequests(harness.ctx.bus, 'ams', false, log)
    consumers.push({ stop: async () => void (await Promise.all(guarded.map((responder) => responder.stop()))) })
    for (const location of ['fra', 'iad']) {
      const env = await testProbeEnv({ GUARD_PROBE_LOCATION: location, GUARD_PROBE_HEARTBEAT_SECONDS: '1' })
      probes[location] = await startProbe({ env, log, bus: harness.ctx.bus })
    }
  }, 60_000)

  afterAll(async () => {
    await Promise.all(Object.values(probes).map((probe) => probe.close()))
    await Promise.all(consumers.map((consumer) => consumer.stop()))
    await app.close()
    await Promise.all([closeServer(http), closeServer(https), closeServer(tcp as unknown as Server), dns.close()])
    await harness.close()
  })

  const create = async (path: '/api/domains' | '/api/services', payload: Record<string, unknown>) => {
    const response = await app.inject({ method: 'POST', url: path, headers: headers(), payload })
    expect(response.statusCode, JSON.stringify(response.json())).toBe(201)
    return response.json().data.id as string
  }

  const latest = async (id: string) => {
    const { rows } = await harness.ctx.sql.query<{ status: string; last_error_kind: string | null; location: string }>(
      'SELECT status, last_error_kind, location FROM monitoring.monitor_location_state WHERE monitor_id = $1',
      [id],
    )
    return rows
  }

  async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const value = await read()
      if (value !== undefined) return value
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    throw new Error(`timed out waiting for ${what}`)
  }

  it('stores a failure whose quoted value is cut inside an emoji, and every other result beside it', async () => {
    const options = { checkInterval: 5, timeout: 3, locations: ['fra'] }
    const cut = await create('/api/domains', {
      url: `${base}/emoji-name`,
      jsonPath: { path: '$.name', equals: 'nope' },
      ...options,
    })
    const plain = await create('/api/domains', { url: `${base}/ok`, ...options })
    const stored = async (id: string) => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/domains/${id}/monitoring/history?range=1h`,
        headers: headers(),
      })
      const entries = response.json().data as Array<{ error?: string | null }>
      return entries.length > 0 ? entries : undefined
    }
    const [failure] = await waitFor('the emoji failure stored', () => stored(cut))
    await waitFor('the plain result stored beside it', () => stored(plain))
    expect(failure!.error).toBe(`JSONPath $.name is "${'a'.repeat(198)}, expected "nope"`)
  })

  it.skipIf(!pingBinary())('checks an ICMP service with the count of echo requests it names', async () => {
    const id = await create('/api/services', {
      name: 'icmp',
      protocol: 'icmp',
      protocolConfig: { host: '127.0.0.1', count: 2 },
      checkInterval: 5,
      timeout: 3,
      locations: ['fra'],
    })
    const [state] = await waitFor('a result for icmp count', async () => {
      const rows = await latest(id)
      return rows.length > 0 ? rows : undefined
    })
    expect({ status: state!.status, kind: state!.last_error_kind }).toEqual({ status: 'up', kind: null })
  })

  it('passes and fails each option for exactly its reason, and keeps the reason with the result', async () => {
    const domain = (path: string, options: Record<string, unknown> = {}, url = `${base}${path}`) => ({
      url,
      checkInterval: 5,
      timeout: 3,
      locations: ['fra'],
      ...options,
    })
    const cases: Array<[string, '/api/domains' | '/api/services', Record<string, unknown>, string, string | null]> = [
      [
        'method, headers, body',
        '/api/domains',
        domain('/echo', { method: 'POST', body: 'ping', headers: { 'X-Probe': 'yes' } }),
        'up',
        null,
      ],
      [
        'method, headers, body',
        '/api/domains',
        domain('/echo', { method: 'POST', body: 'pong', headers: { 'X-Probe': 'yes' } }),
        'down',
        'status_mismatch',
      ],
      ['expectedStatus', '/api/domains', domain('/status/503', { expectedStatus: [503] }), 'up', null],
      ['expectedStatus', '/api/domains', domain('/status/503'), 'down', 'status_mismatch'],
      ['keyword', '/api/domains', domain('/ok', { keyword: 'hello' }), 'up', null],
      ['keyword', '/api/domains', domain('/ok', { keyword: 'goodbye' }), 'down', 'keyword_missing'],
      ['keywordAbsent', '/api/domains', domain('/ok', { keyword: 'error', keywordAbsent: true }), 'up', null],
      [
        'keywordAbsent',
        '/api/domains',
        domain('/ok', { keyword: 'hello', keywordAbsent: true }),
        'down',
        'keyword_present',
      ],
      ['regex', '/api/domains', domain('/ok', { regex: '^hello \\w+$' }), 'up', null],
      ['regex', '/api/domains', domain('/ok', { regex: '^\\d+$' }), 'down', 'regex_mismatch'],
      ['jsonPath', '/api/domains', domain('/json', { jsonPath: { path: '$.status', equals: 'ok' } }), 'up', null],
      [
        'jsonPath',
        '/api/domains',
        domain('/json', { jsonPath: { path: '$.status', equals: 'down' } }),
        'down',
        'json_assertion',
      ],
      ['followRedirects', '/api/domains', domain('/redirect', { expectedStatus: [200] }), 'up', null],
      [
        'followRedirects',
        '/api/domains',
        domain('/redirect', { followRedirects: false, expectedStatus: [200] }),
        'down',
        'status_mismatch',
      ],
      ['degradedAboveMs', '/api/domains', domain('/slow', { degradedAboveMs: 2500 }), 'up', null],
      ['degradedAboveMs', '/api/domains', domain('/slow', { degradedAboveMs: 100 }), 'degraded', 'slow'],
      ['ignoreTlsErrors', '/api/domains', domain('/ok', { ignoreTlsErrors: true }, `${secureBase}/ok`), 'up', null],
      ['ignoreTlsErrors', '/api/domains', domain('/ok', {}, `${secureBase}/ok`), 'down', 'tls_invalid'],
      ['isApi', '/api/domains', domain('/json', { isApi: true }), 'up', null],
      ['isApi', '/api/domains', domain('/text-json', { isApi: true }), 'down', 'not_json'],
      [
        'authType basic',
        '/api/domains',
        domain('/auth/basic', { authType: 'basic', credentials: { username: 'ann', password: PASSWORD } }),
        'up',
        null,
      ],
      [
        'authType basic',
        '/api/domains',
        domain('/auth/basic', { authType: 'basic', credentials: { username: 'ann', password: 'wrong' } }),
        'down',
        'status_mismatch',
      ],
      [
        'authType bearer',
        '/api/domains',
        domain('/auth/bearer', { authType: 'bearer', credentials: { token: TOKEN } }),
        'up',
        null,
      ],
      [
        'tcp',
        '/api/services',
        {
          name: 'tcp',
          protocol: 'tcp',
          protocolConfig: { host: '127.0.0.1', port: tcpPort },
          checkInterval: 5,
          timeout: 3,
          locations: ['fra'],
        },
        'up',
        null,
      ],
      [
        'tcp',
        '/api/services',
        {
          name: 'tcp',
          protocol: 'tcp',
          protocolConfig: { host: '127.0.0.1', port: await closedPort() },
          checkInterval: 5,
          timeout: 3,
          locations: ['fra'],
        },
        'down',
        'connect_refused',
      ],
      [
        'dns expected',
        '/api/services',
        {
          name: 'dns',
          protocol: 'dns',
          protocolConfig: { host: 'shop.test', recordType: 'A', expected: '192.0.2.10', server: dns.server },
          checkInterval: 5,
          timeout: 3,
          locations: ['fra'],
        },
        'up',
        null,
      ],
      [
        'dns expected',
        '/api/services',
        {
          name: 'dns',
          protocol: 'dns',
          protocolConfig: { host: 'shop.test', recordType: 'A', expected: '192.0.2.99', server: dns.server },
          checkInterval: 5,
          timeout: 3,
          locations: ['fra'],
        },
        'down',
        'dns_mismatch',
      ],
      [
        'dns',
        '/api/services',
        {
          name: 'dns',
          protocol: 'dns',
          protocolConfig: { host: 'nowhere.test', recordType: 'A', server: dns.server },
          checkInterval: 5,
          timeout: 3,
          locations: ['fra'],
        },
        'down',
        'dns',
      ],
      [
        'tls',
        '/api/services',
        {
          name: 'tls',
          protocol: 'tls',
          protocolConfig: { host: '127.0.0.1', port: Number(new URL(secureBase).port), warnDays: 1 },
          checkInterval: 5,
          timeout: 3,
          locations: ['fra'],
        },
        'down',
        'tls_invalid',
      ],
    ]
    const created = []
    for (const [option, path, payload, status, kind] of cases) {
      created.push({ option, id: await create(path, payload), status, kind })
    }
    // New monitors are all checked at once, so on a loaded machine one first check may time out; the
    // next one (5 s later) must then show the option's own outcome. A wrong reason never matches.
    for (const { option, id, status, kind } of created) {
      const outcome = (rows: Array<{ status: string; last_error_kind: string | null }>) =>
        rows[0] ? { option, status: rows[0].status, kind: rows[0].last_error_kind } : undefined
      // A location's last error stays after it recovers: a passing option is judged by its status.
      const expected = (seen: ReturnType<typeof outcome>) =>
        seen?.status === status && (kind === null || seen.kind === kind)
      let last: ReturnType<typeof outcome>
      await waitFor(`${option} to be ${status}`, async () => {
        last = outcome(await latest(id))
        return expected(last) ? last : undefined
      }).catch(() => undefined)
      expect(last).toEqual({ option, status, kind: kind ?? last?.kind ?? null })
    }

    // The stored result keeps its kind and message: history, the list and the detail say why.
    const failing = created.find((entry) => entry.kind === 'keyword_missing')!
    const history = (
      await app.inject({ url: `/api/domains/${failing.id}/monitoring/history`, headers: headers() })
    ).json()
    expect(history.data[0]).toMatchObject({
      status: 'down',
      errorKind: 'keyword_missing',
      error: expect.stringContaining('goodbye'),
    })
    const detail = await waitFor('the domain to be down', async () => {
      const body = (await app.inject({ url: `/api/domains/${failing.id}`, headers: headers() })).json().data
      return body.status === 'down' ? body : undefined
    })
    expect(detail).toMatchObject({
      keyword: 'goodbye',
      locations: ['fra'],
      lastError: { kind: 'keyword_missing', location: 'fra', message: expect.stringContaining('goodbye') },
      failingLocations: ['fra'],
    })
    const list = (await app.inject({ url: '/api/domains?limit=100', headers: headers() })).json().data
    expect(list.find((item: { id: string }) => item.id === failing.id)).toMatchObject({
      lastError: { kind: 'keyword_missing' },
      failingLocations: ['fra'],
    })
    const locationsView = (
      await app.inject({ url: `/api/domains/${failing.id}/monitoring/locations`, headers: headers() })
    ).json().data
    expect(locationsView.fra[0]).toMatchObject({ status: 'down', errorKind: 'keyword_missing' })
  }, 90_000)

  it('sends credentials from the probe and never returns or logs them', async () => {
    expect(authorizations).toContain(`Basic ${Buffer.from(`ann:${PASSWORD}`).toString('base64')}`)
    expect(authorizations).toContain(`Bearer ${TOKEN}`)
    const { rows } = await harness.ctx.sql.query<{ id: string; credentials: string }>(
      `SELECT id, credentials FROM monitoring.monitors WHERE auth_type <> 'none'`,
    )
    expect(rows.length).toBeGreaterThanOrEqual(3)
    const responses: string[] = []
    for (const { id, credentials } of rows) {
      expect(credentials).not.toContain(PASSWORD)
      expect(credentials).not.toContain(TOKEN)
      for (const url of [`/api/domains/${id}`, `/api/domains/${id}/monitoring/history`, `/api/domains/${id}/summary`]) {
        responses.push((await app.inject({ url, headers: headers() })).body)
      }
      const detail = (await app.inject({ url: `/api/domains/${id}`, headers: headers() })).json().data
      expect(detail).toMatchObject({ authType: expect.stringMatching(/basic|bearer/), credentialsSet: true })
      expect(detail.credentials).toBeUndefined()
      const updated = await app.inject({
        method: 'PUT',
        url: `/api/domains/${id}`,
        headers: headers(),
        payload: { name: 'renamed, credentials kept' },
      })
      responses.push(updated.body)
      expect(updated.json().data.credentialsSet).toBe(true)
    }
    responses.push((await app.inject({ url: '/api/domains?limit=100', headers: headers() })).body)
    responses.push((await app.inject({ url: '/api/domains?offset=0', headers: headers() })).body)
    for (const text of [...responses, ...logLines]) {
      expect(text).not.toContain(PASSWORD)
      expect(text).not.toContain(TOKEN)
      expect(text).not.toContain(Buffer.from(`ann:${PASSWORD}`).toString('base64'))
    }
    expect(logLines.length).toBeGreaterThan(0)
  })

  it('tests a check from the chosen location without storing anything, and answers 504 without a probe there', async () => {
    const before = await harness.ctx.sql.query<{ count: string }>('SELECT count(*) FROM monitoring.monitors')
    const keysBefore = (await harness.ctx.monitors.keys()).length
    const tested = await app.inject({
      method: 'POST',
      url: '/api/monitors/test',
      headers: headers(),
      payload: { location: 'iad', domain: { url: `${secureBase}/ok`, keyword: 'nope', ignoreTlsErrors: true } },
    })
    expect(tested.statusCode, tested.body).toBe(200)
    expect(tested.json().data).toMatchObject({
      location: 'iad',
      status: 'down',
      statusCode: 200,
      errorKind: 'keyword_missing',
      phases: { connectMs: expect.any(Number), tlsMs: expect.any(Number) },
      certificate: { valid: false, issuer: expect.stringContaining('guard-fixture') },
    })
    const service = await app.inject({
      method: 'POST',
      url: '/api/monitors/test',
      headers: headers(),
      payload: {
        location: 'fra',
        service: { name: 't', protocol: 'tcp', protocolConfig: { host: '127.0.0.1', port: tcpPort } },
      },
    })
    expect(service.json().data).toMatchObject({ location: 'fra', status: 'up', kind: 'tcp' })
    const after = await harness.ctx.sql.query<{ count: string }>('SELECT count(*) FROM monitoring.monitors')
    expect(after.rows[0]!.count).toBe(before.rows[0]!.count)
    expect((await harness.ctx.monitors.keys()).length).toBe(keysBefore)
    const stored = await harness.ctx.timeseries.client.query({
      query: "SELECT count() AS n FROM check_results WHERE startsWith(monitor_id, 'test-')",
      format: 'JSONEachRow',
    })
    expect((await stored.json<{ n: string | number }>()).map((row) => Number(row.n))).toEqual([0])

    // The CLI is a thin client of the same route.
    const listening = await buildCollectorApp(harness.ctx)
    try {
      await listening.listen({ host: '127.0.0.1', port: 0 })
      const address = listening.server.address() as { port: number }
      const printed: string[] = []
      const env = { GUARD_COLLECTOR_URL: `http://127.0.0.1:${address.port}`, GUARD_API_KEY: harness.apiKey }
      const up = await runMonitorCommand(
        ['test', '--location', 'fra', '--url', `${base}/ok`, '--options', '{"keyword":"hello"}'],
        env,
        (text) => printed.push(text),
      )
      expect(up).toBe(0)
      expect(JSON.parse(printed[0]!)).toMatchObject({ location: 'fra', status: 'up', statusCode: 200 })
      const down = await runMonitorCommand(
        ['test', '--location', 'fra', '--url', `${base}/ok`, '--options', '{"keyword":"absent"}'],
        env,
        (text) => printed.push(text),
      )
      expect(down).toBe(1)
      expect(JSON.parse(printed[1]!)).toMatchObject({ status: 'down', errorKind: 'keyword_missing' })
    } finally {
      await listening.close()
    }

    const refused = await app.inject({
      method: 'POST',
      url: '/api/monitors/test',
      headers: headers(),
      payload: { location: 'ams', domain: { url: `http://localhost:${new URL(base).port}/ok` } },
    })
    expect(refused.json().data).toMatchObject({ location: 'ams', status: 'down', errorKind: 'refused_private_target' })
    expect(refused.json().data.error).not.toMatch(/127\.0\.0\.1|::1|loopback/)
    expect(refused.json().data.address).toBeUndefined()

    const nobody = await app.inject({
      method: 'POST',
      url: '/api/monitors/test',
      headers: headers(),
      payload: { location: 'sin', domain: { url: `${base}/ok` } },
    })
    expect(nobody.statusCode).toBe(504)
    expect(nobody.json()).toMatchObject({ success: false, error: 'TIMEOUT', message: expect.stringContaining('sin') })
    const invalid = await app.inject({
      method: 'POST',
      url: '/api/monitors/test',
      headers: headers(),
      payload: { location: 'fra', domain: { url: `${base}/ok`, regex: '(' } },
    })
    expect(invalid.statusCode).toBe(400)
    expect(invalid.json().message).toMatch(/regex/)
  })

  it('checks a monitor only at its location, lists both probes and marks a stopped one offline', async () => {
    const id = await create('/api/domains', { url: `${base}/ok`, checkInterval: 5, timeout: 3, locations: ['iad'] })
    await waitFor('a result from iad', async () => ((await latest(id)).length > 0 ? true : undefined))
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const rows = await harness.ctx.timeseries.client.query({
      query: 'SELECT DISTINCT location FROM check_results WHERE monitor_id = {id:String}',
      query_params: { id },
      format: 'JSONEachRow',
    })
    expect(await rows.json()).toEqual([{ location: 'iad' }])

    const locations = async () =>
      (await app.inject({ url: '/api/locations', headers: headers() })).json().data as Array<{
        code: string
        online: boolean
        probes: Array<{ online: boolean; version: string }>
      }>
    const both = await waitFor('both probes online', async () => {
      const list = await locations()
      return list.filter((location) => location.online).length === 2 ? list : undefined
    })
    expect(both.map((location) => [location.code, location.online])).toEqual([
      ['ams', false],
      ['fra', true],
      ['iad', true],
      ['sin', false],
    ])
    expect(both.find((location) => location.code === 'fra')!.probes[0]).toMatchObject({
      online: true,
      version: expect.any(String),
    })

    await probes.iad!.close()
    const after = await waitFor('iad offline', async () => {
      const list = await locations()
      return list.find((location) => location.code === 'iad')?.online === false ? list : undefined
    })
    expect(after.find((location) => location.code === 'fra')?.online).toBe(true)
    expect(after.find((location) => location.code === 'iad')?.probes[0]?.online).toBe(false)
    const view = (await app.inject({ url: `/api/domains/${id}/monitoring/locations`, headers: headers() })).json().data
    expect(view.iad[0]).toMatchObject({ status: 'no probe' })
    const unknown = await app.inject({
      method: 'PUT',
      url: `/api/domains/${id}`,
      headers: headers(),
      payload: { locations: ['mars'] },
    })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().message).toMatch(/locations: unknown location mars/)
  }, 60_000)
})
