import { DEFAULT_ORGANIZATION, decodeMonitorConfig, openTargetSecrets, probeCredentialsKey } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { storeResults } from '../services/results/store.ts'
import { registryProtocols } from '../services/services/registry-protocols.ts'
import { collectorForTest } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

const PROBE_KEY = 'probe-credentials-key-probe-credentials-key'
const SECRET = 'pw-Qa71-never-shown'

/**
 * The first registered protocol with secrets that a bare `{ host }` satisfies (its default port,
 * no option required), so the secret handling, which is generic, is proven on a real module.
 */
const secretProtocol = registryProtocols.find(
  (protocol) =>
    protocol.secretFields.length > 0 &&
    protocol.defaultPort !== undefined &&
    (protocol.problems?.({ port: protocol.defaultPort }) ?? []).length === 0,
)

describe('check protocols through the services API', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${harness.apiKey}` }, ...(payload ? { payload } : {}) })
  const scheduled = async (id: string) => {
    const entry = (await harness.ctx.monitors.get(id))!.value!
    return { text: new TextDecoder().decode(entry), target: decodeMonitorConfig(entry).target }
  }

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_PROBE_CREDENTIALS_KEY: PROBE_KEY })
    app = await buildCollectorApp(harness.ctx)
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('lists every protocol with its options as JSON Schema and its secret fields', async () => {
    const response = await call('GET', '/api/protocols')
    expect(response.statusCode).toBe(200)
    const listed = response.json().data as Array<Record<string, unknown>>
    expect(listed.map((protocol) => protocol.kind)).toEqual([
      'http',
      'https',
      'tcp',
      'dns',
      'tls',
      'icmp',
      ...registryProtocols.map((protocol) => protocol.kind),
    ])
    const udp = listed.find((protocol) => protocol.kind === 'udp')
    expect(udp).toMatchObject({ label: 'UDP', builtIn: false, secretFields: [] })
    expect(udp).not.toHaveProperty('defaultPort')
    expect(udp!.options).toMatchObject({
      type: 'object',
      properties: {
        payloadEncoding: { enum: ['text', 'hex'] },
        replyContains: { type: 'string', maxLength: 1000, description: expect.any(String) },
      },
    })
    expect(listed.find((protocol) => protocol.kind === 'dns')).toMatchObject({
      builtIn: true,
      options: { properties: { recordType: { enum: expect.arrayContaining(['A', 'MX']) } } },
    })
    if (secretProtocol) {
      expect(listed.find((protocol) => protocol.kind === secretProtocol.kind)).toMatchObject({
        secretFields: secretProtocol.secretFields,
      })
    }
  })

  it('creates a UDP service, schedules its target and shows its options back', async () => {
    const protocolConfig = { host: 'ntp.example.org', port: 123, payload: '1b', payloadEncoding: 'hex' }
    const created = await call('POST', '/api/services', { name: 'NTP', protocol: 'udp', protocolConfig })
    expect(created.statusCode, created.body).toBe(201)
    const service = created.json().data
    expect(service).toMatchObject({ protocol: 'udp', protocolConfig })
    expect((await scheduled(service.id)).target).toEqual({ kind: 'udp', ...protocolConfig })
    expect((await call('GET', `/api/services/${service.id}`)).json().data.protocolConfig).toEqual(protocolConfig)

    const updated = await call('PUT', `/api/services/${service.id}`, {
      protocolConfig: { host: 'ntp.example.org', port: 123, replyContains: 'pong' },
    })
    expect(updated.statusCode, updated.body).toBe(200)
    expect(updated.json().data.protocolConfig).toEqual({ host: 'ntp.example.org', port: 123, replyContains: 'pong' })
    expect((await scheduled(service.id)).target).toEqual({
      kind: 'udp',
      host: 'ntp.example.org',
      port: 123,
      replyContains: 'pong',
    })
  })

  it("stores a registry protocol's results with its kind and every timing phase, queryMs included", async () => {
    const { id } = (
      await call('POST', '/api/services', {
        name: 'timed',
        protocol: 'udp',
        protocolConfig: { host: 'example.org', port: 9 },
      })
    ).json().data
    const phases = { dnsMs: 1.5, connectMs: 2, firstByteMs: 4, queryMs: 7.25 }
    const result = resultFor(id, DEFAULT_ORGANIZATION.id, 'fra', 10, 'down', 12, {
      kind: 'udp',
      phases,
      error: 'no reply',
      errorKind: 'reply_mismatch',
    })
    await storeResults(harness.ctx.timeseries, [result])
    const history = (await call('GET', `/api/services/${id}/history`)).json().data
    expect(history).toEqual([expect.objectContaining({ id: result.id, phases, errorKind: 'reply_mismatch' })])
  })

  it('refuses a foreign or wrong option with a 400 naming the field, on create and on update', async () => {
    const refused = async (method: 'POST' | 'PUT', url: string, body: Record<string, unknown>, field: RegExp) => {
      const response = await call(method, url, body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().message).toMatch(field)
    }
    const udp = (config: Record<string, unknown>) => ({
      name: 'u',
      protocol: 'udp',
      protocolConfig: { host: 'example.org', ...config },
    })
    await refused('POST', '/api/services', udp({ port: 9, path: '/x' }), /protocolConfig: Unrecognized key: "path"/)
    await refused('POST', '/api/services', udp({}), /protocolConfig\.port: a UDP check needs a port/)
    await refused(
      'POST',
      '/api/services',
      udp({ port: 9, payloadEncoding: 'base64' }),
      /protocolConfig\.payloadEncoding/,
    )
    await refused(
      'POST',
      '/api/services',
      udp({ port: 9, payloadEncoding: 'hex', payload: 'xyz' }),
      /protocolConfig\.payload: must be pairs of hex digits/,
    )
    await refused(
      'POST',
      '/api/services',
      { name: 't', protocol: 'tcp', protocolConfig: { host: 'example.org', port: 9, payload: 'x' } },
      /protocolConfig/,
    )
    const { id } = (await call('POST', '/api/services', udp({ port: 9 }))).json().data
    await refused(
      'PUT',
      `/api/services/${id}`,
      { protocolConfig: { host: 'example.org', port: 9, recordType: 'A' } },
      /protocolConfig: Unrecognized key: "recordType"/,
    )
    await refused('PUT', `/api/services/${id}`, { protocolConfig: { host: 'example.org' } }, /protocolConfig\.port/)
    expect((await scheduled(id)).target).toEqual({ kind: 'udp', host: 'example.org', port: 9 })
  })

  it('creates and updates a registry protocol service through the MCP tools, never returning a secret', async () => {
    const callTool = async (name: string, args: Record<string, unknown>) => {
      const response = await app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          authorization: `Bearer ${harness.apiKey}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
      })
      expect(response.statusCode, response.body).toBe(200)
      return response.json().result as { isError?: boolean; structuredContent?: Record<string, unknown> }
    }
    const created = await callTool('create_service', {
      name: 'MCP echo',
      protocol: 'udp',
      protocolConfig: { host: 'echo.example.org', port: 7, payload: 'hi' },
    })
    expect(created.isError).toBeFalsy()
    const id = created.structuredContent!.id as string
    expect(created.structuredContent).toMatchObject({
      protocol: 'udp',
      protocolConfig: { host: 'echo.example.org', port: 7, payload: 'hi' },
    })
    const foreign = await callTool('update_service', { id, protocolConfig: { host: 'x.example', port: 7, path: '/' } })
    expect(foreign.isError).toBe(true)
    const updated = await callTool('update_service', {
      id,
      protocolConfig: { host: 'echo.example.org', port: 7, replyMatches: '^hi' },
    })
    expect(updated.structuredContent).toMatchObject({ protocolConfig: { replyMatches: '^hi' } })
    expect((await scheduled(id)).target).toEqual({
      kind: 'udp',
      host: 'echo.example.org',
      port: 7,
      replyMatches: '^hi',
    })
    if (secretProtocol) {
      const secrets = Object.fromEntries(secretProtocol.secretFields.map((field) => [field, SECRET]))
      const withSecret = await callTool('create_service', {
        name: 'MCP secret',
        protocol: secretProtocol.kind,
        protocolConfig: { host: 'db.example.org', ...secrets },
      })
      expect(withSecret.structuredContent).toMatchObject({ protocolConfig: { secretsSet: true } })
      expect(JSON.stringify(withSecret)).not.toContain(SECRET)
    }
  })

  it.skipIf(!secretProtocol)('keeps secrets write-only, sealed at rest and for probes, across updates', async () => {
    const protocol = secretProtocol!
    const secrets = Object.fromEntries(protocol.secretFields.map((field) => [field, SECRET]))
    const created = await call('POST', '/api/services', {
      name: 'With secrets',
      protocol: protocol.kind,
      protocolConfig: { host: 'db.example.org', ...secrets },
    })
    expect(created.statusCode, created.body).toBe(201)
    const { id } = created.json().data
    expect(created.body).not.toContain(SECRET)
    expect(created.json().data.protocolConfig).toEqual({
      host: 'db.example.org',
      port: protocol.defaultPort,
      secretsSet: true,
    })
    const { rows } = await harness.ctx.sql.query<{ target: unknown; credentials: string }>(
      'SELECT target, credentials FROM monitoring.monitors WHERE id = $1',
      [id],
    )
    expect(JSON.stringify(rows)).not.toContain(SECRET)
    expect(rows[0]!.credentials).toMatch(/^v1\./)

    const openedSecrets = async () => {
      const { text, target } = await scheduled(id)
      expect(text).not.toContain(SECRET)
      expect(target).toMatchObject({ sealedSecrets: expect.stringMatching(/^v1\./) })
      return (openTargetSecrets(target, probeCredentialsKey(PROBE_KEY)) as { secrets?: unknown }).secrets
    }
    expect(await openedSecrets()).toEqual(secrets)

    const renamed = await call('PUT', `/api/services/${id}`, {
      name: 'Renamed',
      protocolConfig: { host: 'db2.example.org' },
    })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect(renamed.json().data.protocolConfig).toMatchObject({ host: 'db2.example.org', secretsSet: true })
    expect(await openedSecrets()).toEqual(secrets)

    const toTcp = await call('PUT', `/api/services/${id}`, {
      protocol: 'tcp',
      protocolConfig: { host: 'db2.example.org', port: 5432 },
    })
    expect(toTcp.statusCode, toTcp.body).toBe(200)
    const after = await harness.ctx.sql.query<{ credentials: string | null }>(
      'SELECT credentials FROM monitoring.monitors WHERE id = $1',
      [id],
    )
    expect(after.rows[0]!.credentials).toBeNull()
    expect((await scheduled(id)).target).toEqual({ kind: 'tcp', host: 'db2.example.org', port: 5432 })
  })
})
