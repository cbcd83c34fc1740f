import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { sampleHeartbeat } from '@guard/shared/testing'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { applyHeartbeats } from '../services/devices/apply-heartbeats.ts'
import { storeHeartbeats } from '../services/devices/store-heartbeats.ts'
import { applyResultsToState } from '../services/monitor-state/apply-results.ts'
import { storeResults } from '../services/results/store.ts'
import {
  configComponentId,
  configViewComponentId,
  registryConfigSchema,
  registryProtocols,
} from '../services/services/registry-protocols.ts'
import { protocolConfig } from '../services/services/schemas.ts'
import { authenticateWithUsers, collectorForTest, userCaller } from '../test-support.ts'
import { resultFor } from './test-helpers.ts'

type Harness = Awaited<ReturnType<typeof collectorForTest>>
interface Operation {
  requestBody?: { content: Record<string, { example?: unknown; examples?: unknown }> }
  responses: Record<string, { content?: Record<string, { schema: object }> }>
}
interface Document {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, object> }
}

/** How many times `text` occurs in `within`. */
const occurrences = (within: string, text: string) => within.split(text).length - 1

describe('OpenAPI document', () => {
  let harness: Harness
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let document: Document

  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_RATE_LIMIT_BULK: '1' })
    app = await buildCollectorApp(harness.ctx, {
      authenticate: authenticateWithUsers(harness.ctx, { alice: userCaller('alice', [DEFAULT_ORGANIZATION.id]) }),
    })
    document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  it('is a valid OpenAPI 3.1 document served without authentication', async () => {
    expect(document.openapi).toBe('3.1.0')
    const result = await new Validator().validate(document as never)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('shows an example body for every monitor write route', () => {
    for (const [path, method] of [
      ['/api/domains', 'post'],
      ['/api/domains/{id}', 'put'],
      ['/api/services', 'post'],
      ['/api/monitors/test', 'post'],
    ] as const) {
      const media = document.paths[path]?.[method]?.requestBody?.content['application/json']
      expect(media?.example ?? media?.examples, `${method} ${path}`).toBeDefined()
    }
  })

  it("writes each check protocol's configuration once, as a component the services routes refer to", () => {
    const whole = JSON.stringify(document)
    const paths = JSON.stringify(document.paths)
    const refersTo = (path: string, method: string, id: string) =>
      JSON.stringify(document.paths[path]?.[method]).includes(`"#/components/schemas/${id}"`)
    for (const protocol of registryProtocols) {
      const config = configComponentId(protocol.kind)
      const view = configViewComponentId(protocol.kind)
      expect(document.components.schemas[config], config).toBeDefined()
      expect(document.components.schemas[view], view).toBeDefined()
      const description = registryConfigSchema(protocol).description
      expect(description).toBeDefined()
      expect(occurrences(whole, JSON.stringify(description)), `${protocol.kind}: its description`).toBe(1)
      expect(occurrences(paths, `${protocol.label} protocolConfig`), `${protocol.kind}: inline in a path`).toBe(0)
      for (const method of ['post', 'put'] as const) {
        expect(refersTo(method === 'post' ? '/api/services' : '/api/services/{id}', method, config), method).toBe(true)
      }
      expect(refersTo('/api/services/{id}', 'get', view)).toBe(true)
      expect(refersTo('/api/services', 'get', view)).toBe(true)
    }
    const builtin = document.components.schemas.BuiltinProtocolConfig as { properties: Record<string, unknown> }
    expect(Object.keys(builtin.properties).sort()).toEqual(Object.keys(protocolConfig.shape).sort())
    expect(refersTo('/api/services', 'post', 'BuiltinProtocolConfig')).toBe(true)
    expect(refersTo('/api/services/{id}', 'get', 'BuiltinProtocolConfigView')).toBe(true)
  })

  it("keeps the description of an update's protocolConfig beside its component", () => {
    const body = document.paths['/api/services/{id}']?.put?.requestBody?.content['application/json'] as {
      schema: { oneOf?: Array<{ properties: { protocolConfig: { description?: string; allOf?: unknown } } }> }
    }
    const branches = body.schema.oneOf ?? []
    expect(branches.length).toBe(registryProtocols.length + 2)
    for (const branch of branches) expect(branch.properties.protocolConfig.description).toMatch(/^Replaces the whole/)
  })

  it('describes the live responses of every kind of route, errors included', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    const key = { authorization: `Bearer ${harness.apiKey}` }
    const user = { authorization: 'Bearer user:alice' }
    const domain = (
      await app.inject({ method: 'POST', url: '/api/domains', headers: key, payload: { url: 'https://doc.example' } })
    ).json().data.id
    const service = (
      await app.inject({
        method: 'POST',
        url: '/api/services',
        headers: key,
        payload: { name: 'doc', protocol: 'tcp', protocolConfig: { host: 'doc.example', port: 1 } },
      })
    ).json().data.id
    const results = [
      resultFor(domain, DEFAULT_ORGANIZATION.id, 'fra', 30, 'up', 10, {
        certificate: {
          valid: true,
          expiresAt: new Date(Date.now() + 1e9).toISOString(),
          issuer: 'CA',
          subject: 'doc.example',
        },
      }),
    ]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    const enrolled = await app.inject({ method: 'POST', url: '/api/devices', headers: key, payload: { name: 'doc' } })
    const device = enrolled.json().data as { id: string; token: string }
    const agent = { authorization: `Bearer ${device.token}` }
    const heartbeat = {
      v: 1 as const,
      deviceId: device.id,
      organizationId: DEFAULT_ORGANIZATION.id,
      timestamp: new Date(Date.now() - 1000).toISOString(),
      receivedAt: new Date().toISOString(),
      heartbeat: sampleHeartbeat(
        device.id,
        {},
        {
          processes: [
            { pid: 1, name: 'init', command: 'init', cpu_percent: 0, memory_mb: 1, status: 's', user: 'root' },
          ],
          applications: [{ name: 'a', version: '1', publisher: 'p', install_path: '', size: 1, is_running: false }],
          connections: [
            {
              local_address: '::',
              local_port: 22,
              remote_address: null,
              remote_port: null,
              protocol: 'tcp',
              status: 'LISTEN',
              process_name: 'sshd',
            },
          ],
        },
      ),
    }
    await storeHeartbeats(harness.ctx.timeseries, [heartbeat])
    await applyHeartbeats(harness.ctx.sql, harness.ctx.env, [heartbeat])

    const incident = (
      await app.inject({ method: 'POST', url: '/api/incidents', headers: key, payload: { title: 'Doc incident' } })
    ).json().data.id
    const calls: Array<{
      method: 'GET' | 'POST' | 'PUT' | 'DELETE'
      url: string
      path: string
      headers?: Record<string, string>
      payload?: object
    }> = [
      { method: 'GET', url: '/api/domains', path: '/api/domains' },
      { method: 'GET', url: '/api/domains?offset=0', path: '/api/domains' },
      { method: 'GET', url: `/api/domains/${domain}`, path: '/api/domains/{id}' },
      { method: 'PUT', url: `/api/domains/${domain}`, path: '/api/domains/{id}', payload: { name: 'Doc' } },
      { method: 'GET', url: `/api/domains/${domain}/stats?period=7d`, path: '/api/domains/{id}/stats' },
      { method: 'GET', url: `/api/domains/${domain}/summary`, path: '/api/domains/{id}/summary' },
      { method: 'GET', url: `/api/domains/${domain}/monitoring/history`, path: '/api/domains/{id}/monitoring/history' },
      {
        method: 'GET',
        url: `/api/domains/${domain}/monitoring/locations`,
        path: '/api/domains/{id}/monitoring/locations',
      },
      { method: 'GET', url: '/api/domains/stats', path: '/api/domains/stats' },
      { method: 'GET', url: '/api/domains/response-times', path: '/api/domains/response-times' },
      { method: 'GET', url: '/api/domains/nope', path: '/api/domains/{id}' },
      { method: 'GET', url: '/api/domains', path: '/api/domains', headers: {} },
      { method: 'POST', url: '/api/domains', path: '/api/domains', payload: { url: 'nope' } },
      {
        method: 'GET',
        url: '/api/domains/fetch-title?url=http%3A%2F%2F127.0.0.1%3A1',
        path: '/api/domains/fetch-title',
      },
      {
        method: 'GET',
        url: '/api/domains/fetch-title?url=http%3A%2F%2F127.0.0.1%3A1',
        path: '/api/domains/fetch-title',
      },
      {
        method: 'POST',
        url: '/api/services',
        path: '/api/services',
        payload: { name: 'udp', protocol: 'udp', protocolConfig: { host: 'doc.example', port: 9, payload: 'ping' } },
      },
      { method: 'GET', url: '/api/services', path: '/api/services' },
      { method: 'GET', url: '/api/protocols', path: '/api/protocols' },
      { method: 'GET', url: `/api/services/${service}`, path: '/api/services/{id}' },
      { method: 'GET', url: `/api/services/${service}/history`, path: '/api/services/{id}/history' },
      { method: 'POST', url: `/api/services/${service}/check`, path: '/api/services/{id}/check' },
      { method: 'GET', url: '/api-keys', path: '/api-keys', headers: user },
      {
        method: 'POST',
        url: '/api-keys',
        path: '/api-keys',
        headers: user,
        payload: { name: 'd', scopes: ['read:*'] },
      },
      { method: 'GET', url: '/api-keys', path: '/api-keys' },
      { method: 'DELETE', url: `/api/services/${service}`, path: '/api/services/{id}' },
      { method: 'GET', url: '/api/usage', path: '/api/usage' },
      { method: 'GET', url: '/api/usage?organizationId=someone-else', path: '/api/usage' },
      { method: 'GET', url: '/api/devices', path: '/api/devices' },
      { method: 'GET', url: '/api/devices/stats', path: '/api/devices/stats' },
      { method: 'GET', url: `/api/devices/${device.id}`, path: '/api/devices/{deviceId}' },
      { method: 'GET', url: `/api/devices/${device.id}/metrics`, path: '/api/devices/{deviceId}/metrics' },
      { method: 'GET', url: `/api/devices/${device.id}/metrics?range=7d`, path: '/api/devices/{deviceId}/metrics' },
      { method: 'GET', url: `/api/devices/${device.id}/processes`, path: '/api/devices/{deviceId}/processes' },
      { method: 'GET', url: `/api/devices/${device.id}/applications`, path: '/api/devices/{deviceId}/applications' },
      { method: 'GET', url: `/api/devices/${device.id}/network`, path: '/api/devices/{deviceId}/network' },
      { method: 'POST', url: '/agent', path: '/agent', headers: agent, payload: sampleHeartbeat(device.id) },
      { method: 'POST', url: '/agent', path: '/agent', headers: agent, payload: { device_id: device.id } },
      { method: 'POST', url: '/agent', path: '/agent', headers: agent, payload: sampleHeartbeat('another') },
      { method: 'POST', url: '/agent', path: '/agent', headers: {}, payload: sampleHeartbeat(device.id) },
      { method: 'PUT', url: `/api/devices/${device.id}`, path: '/api/devices/{deviceId}', payload: { name: 'Doc' } },
      {
        method: 'POST',
        url: `/api/devices/${device.id}/regenerate-token`,
        path: '/api/devices/{deviceId}/regenerate-token',
      },
      { method: 'POST', url: '/api/devices', path: '/api/devices', payload: { name: 'second' } },
      { method: 'DELETE', url: `/api/devices/${device.id}`, path: '/api/devices/{deviceId}' },
      { method: 'GET', url: '/api/health', path: '/api/health' },
      { method: 'GET', url: '/api/locations', path: '/api/locations' },
      {
        method: 'POST',
        url: '/api/monitors/test',
        path: '/api/monitors/test',
        payload: { location: 'nowhere', domain: { url: 'https://doc.example' } },
      },
      {
        method: 'POST',
        url: '/api/domains',
        path: '/api/domains',
        payload: {
          url: 'https://doc.example/api',
          method: 'POST',
          body: '{}',
          jsonPath: { path: '$.ok', equals: true },
          authType: 'basic',
          credentials: { username: 'u', password: 'p' },
        },
      },
      { method: 'GET', url: '/api/incidents?status=open', path: '/api/incidents' },
      { method: 'POST', url: '/api/incidents', path: '/api/incidents', payload: { title: 'Doc 2', severity: 'low' } },
      { method: 'GET', url: `/api/incidents/${incident}`, path: '/api/incidents/{id}' },
      {
        method: 'PUT',
        url: `/api/incidents/${incident}`,
        path: '/api/incidents/{id}',
        payload: { status: 'investigating' },
      },
      {
        method: 'POST',
        url: `/api/incidents/${incident}/updates`,
        path: '/api/incidents/{id}/updates',
        payload: { message: 'Fixed', status: 'monitoring' },
      },
      { method: 'GET', url: `/api/incidents/${incident}/updates`, path: '/api/incidents/{id}/updates' },
      {
        method: 'POST',
        url: `/api/incidents/${incident}/comments`,
        path: '/api/incidents/{id}/comments',
        payload: { content: 'Internal', isInternal: true },
      },
      { method: 'GET', url: `/api/incidents/${incident}/comments`, path: '/api/incidents/{id}/comments' },
      {
        method: 'POST',
        url: '/api/maintenance-windows',
        path: '/api/maintenance-windows',
        payload: { title: 'W', startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T01:00:00Z', recurrence: 'weekly' },
      },
      { method: 'GET', url: '/api/maintenance-windows', path: '/api/maintenance-windows' },
      { method: 'GET', url: '/api/notifications/settings', path: '/api/notifications/settings' },
      {
        method: 'PUT',
        url: '/api/notifications/settings',
        path: '/api/notifications/settings',
        payload: { webhookUrl: 'https://127.0.0.1/hook' },
      },
      {
        method: 'PUT',
        url: '/api/notifications/settings',
        path: '/api/notifications/settings',
        payload: { email: 'a@example.org' },
      },
      { method: 'GET', url: '/api/notifications', path: '/api/notifications' },
      { method: 'PUT', url: '/api/notifications/read-all', path: '/api/notifications/read-all' },
      { method: 'POST', url: '/api/notifications/test', path: '/api/notifications/test' },
      { method: 'GET', url: '/api/notifications/deliveries', path: '/api/notifications/deliveries' },
      {
        method: 'POST',
        url: '/api/status-pages',
        path: '/api/status-pages',
        payload: {
          name: 'Doc page',
          slug: 'doc-page',
          isPublic: true,
          theme: 'dark',
          accentColor: '#0a66c2',
          logoUrl: 'https://cdn.example/logo.png',
          links: [{ label: 'Home', url: 'https://doc.example' }],
          timezone: 'Europe/Berlin',
        },
      },
      { method: 'GET', url: '/api/status-pages/doc-page/public', path: '/api/status-pages/{id}/public' },
      { method: 'GET', url: '/status/doc-page/summary.json', path: '/status/{slug}/summary.json' },
      { method: 'GET', url: '/status/no-such-page/summary.json', path: '/status/{slug}/summary.json' },
      { method: 'GET', url: '/api/reports/devices?range=7d', path: '/api/reports/devices' },
      { method: 'GET', url: '/api/dashboard/recent-activity', path: '/api/dashboard/recent-activity' },
      { method: 'POST', url: '/api/toolbox/ip-scanner', path: '/api/toolbox/ip-scanner', payload: { ip: '' } },
      {
        method: 'POST',
        url: '/api/toolbox/dns-lookup',
        path: '/api/toolbox/dns-lookup',
        payload: { domain: '192.0.2.1', location: 'mars' },
      },
      ...(['/mcp', '/api/mcp'] as const).flatMap((path) => [
        {
          method: 'POST' as const,
          url: path,
          path,
          payload: {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'doc', version: '1' } },
          },
        },
        {
          method: 'POST' as const,
          url: path,
          path,
          headers: { authorization: 'Bearer nope' },
          payload: { jsonrpc: '2.0', id: 1, method: 'ping' },
        },
      ]),
      {
        method: 'GET',
        url: '/.well-known/oauth-protected-resource/mcp',
        path: '/.well-known/oauth-protected-resource/mcp',
      },
    ]
    const seen = new Set<number>()
    for (const call of calls) {
      const response = await app.inject({
        method: call.method,
        url: call.url,
        headers: call.headers ?? key,
        ...(call.payload ? { payload: call.payload } : {}),
      })
      const operation = document.paths[call.path]?.[call.method.toLowerCase()]
      const schema = operation?.responses[String(response.statusCode)]?.content?.['application/json']?.schema
      expect(
        schema,
        `${call.method} ${call.url} answered ${response.statusCode}, which the document does not list`,
      ).toBeDefined()
      const validate = ajv.compile({ ...schema, components: document.components })
      expect(validate(response.json()), `${call.method} ${call.url}: ${ajv.errorsText(validate.errors)}`).toBe(true)
      seen.add(response.statusCode)
    }
    expect([...seen].sort()).toEqual([200, 201, 202, 400, 401, 403, 404, 422, 429])
  })
})
