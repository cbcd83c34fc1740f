import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createLogger, type Stoppable } from '@guard/shared'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { consumeResults } from '../collector/src/ingest/consume-results.ts'
import { collectorForTest, type FakeAnswer, type FakeRequest, fakePlatform } from '../collector/src/test-support.ts'
import { type RunningProbe, startProbe } from '../probe/src/server.ts'
import { testProbeEnv } from '../probe/src/testing/probe-env.ts'
import { eventually } from './support/collector-client.ts'

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: object }> }>
}

/**
 * All three integrations end to end: each platform is a local fake, the monitors created from
 * their items are scheduled on a real probe over the bus, and the probe's results come back
 * through ingest to the monitors' history. Every integration response is checked against the
 * OpenAPI document.
 */
describe('integrations: from a linked platform to probe results', () => {
  let target: Server
  let targetUrl: string
  let fake: Awaited<ReturnType<typeof fakePlatform>>
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let probe: RunningProbe
  let ingest: Stoppable
  const codes = new Map<string, string>()

  const platforms = (request: FakeRequest): FakeAnswer => {
    const bearer = String(request.headers.authorization ?? '')
    // cloud-a
    if (request.path === '/tenant/oauth2/v2.0/token') {
      return request.body.client_secret === 'cloud-a-secret-0000'
        ? { status: 200, json: { access_token: 'cloud-a-token', expires_in: 3600 } }
        : { status: 401, json: { error: 'invalid_client' } }
    }
    if (request.path.startsWith('/subscriptions/')) {
      if (bearer !== 'Bearer cloud-a-token') return { status: 401, json: {} }
      if (request.path === '/subscriptions/sub')
        return { status: 200, json: { subscriptionId: 'sub', displayName: 'Prod' } }
      if (request.path.endsWith('Microsoft.Network/publicIPAddresses')) {
        const nic = '/subscriptions/sub/networkInterfaces/vm-nic/ipConfigurations/c'
        return {
          status: 200,
          json: {
            value: [{ id: '/ip/vm', name: 'vm', properties: { ipAddress: '127.0.0.1', ipConfiguration: { id: nic } } }],
          },
        }
      }
      return { status: 200, json: { value: [] } }
    }
    // selfhost-b
    if (request.path.startsWith('/sb/api/v1/')) {
      if (bearer !== 'Bearer selfhost-b-key-0000') return { status: 401, json: {} }
      if (request.path === '/sb/api/v1/teams/current') return { status: 200, json: { id: 0, name: 'Root' } }
      if (request.path === '/sb/api/v1/applications') {
        return { status: 200, json: [{ uuid: 'app', name: 'site', fqdn: `${targetUrl}/selfhost-b` }] }
      }
      return { status: 200, json: [] }
    }
    // webhost-c
    if (request.path === '/oauth/token') {
      const challenge = codes.get(request.body.code ?? '')
      const verified =
        createHash('sha256')
          .update(request.body.code_verifier ?? '')
          .digest('base64url') === challenge
      return verified
        ? {
            status: 200,
            json: { access_token: 'webhost-c-token', refresh_token: 'webhost-c-refresh-0000', expires_in: 3600 },
          }
        : { status: 400, json: { error: 'invalid_grant' } }
    }
    if (bearer !== 'Bearer webhost-c-token') return { status: 401, json: {} }
    if (request.path === '/v2/user') return { status: 200, json: { user: { id: 'u1', username: 'ann' } } }
    if (request.path === '/v9/projects') {
      return {
        status: 200,
        json: { projects: [{ id: 'p1', name: 'shop', targets: { production: { url: `${targetUrl}/webhost-c` } } }] },
      }
    }
    return { status: 404, json: {} }
  }

  beforeAll(async () => {
    target = createServer((_request, response) => response.end('ok'))
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`
    fake = await fakePlatform(platforms)
    harness = await collectorForTest({
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_CLOUD_A_TOKEN_URL: fake.url,
      GUARD_CLOUD_A_API_URL: fake.url,
      GUARD_WEBHOST_C_AUTHORIZE_URL: `${fake.url}/oauth/authorize`,
      GUARD_WEBHOST_C_TOKEN_URL: `${fake.url}/oauth/token`,
      GUARD_WEBHOST_C_API_URL: fake.url,
    })
    app = await buildCollectorApp(harness.ctx)
    ingest = await consumeResults(harness.ctx, { stored: 0, deadLettered: 0, batches: 0 })
    const log = createLogger({ name: 'probe', level: 'silent', pretty: false })
    probe = await startProbe({ env: await testProbeEnv(), log, bus: harness.ctx.bus })
  })
  afterAll(async () => {
    await probe?.close()
    await ingest?.stop()
    await app?.close()
    await harness?.close()
    await fake?.close()
    target?.close()
  })

  it('links each platform, monitors one item of each, and the probe reports on all three', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>
      components: { schemas: Record<string, object> }
    }
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    const headers = { authorization: `Bearer ${harness.apiKey}` }
    const call = async (method: 'GET' | 'POST', url: string, path: string, payload?: object) => {
      const response = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
      const schema =
        document.paths[path]?.[method.toLowerCase()]?.responses[String(response.statusCode)]?.content?.[
          'application/json'
        ]?.schema
      expect(schema, `${method} ${url} answered ${response.statusCode}: ${response.body}`).toBeDefined()
      const validate = ajv.compile({ ...schema, components: document.components })
      expect(validate(response.json()), `${method} ${url}: ${ajv.errorsText(validate.errors)}`).toBe(true)
      return response
    }

    const cloudA = (
      await call('POST', '/api/cloud-a/accounts', '/api/cloud-a/accounts', {
        tenantId: 'tenant',
        clientId: 'client',
        clientSecret: 'cloud-a-secret-0000',
        subscriptionId: 'sub',
      })
    ).json().data
    const selfhostB = (
      await call('POST', '/api/selfhost-b/instances', '/api/selfhost-b/instances', {
        name: 'lab',
        url: `${fake.url}/sb`,
        apiKey: 'selfhost-b-key-0000',
      })
    ).json().data
    const started = (await call('POST', '/api/webhost-c/accounts', '/api/webhost-c/accounts')).json().data
    const authorization = new URL(started.authorizationUrl).searchParams
    codes.set('the-code', authorization.get('code_challenge')!)
    const callback = await app.inject({
      method: 'GET',
      url: `/api/webhost-c/callback?code=the-code&state=${authorization.get('state')}`,
    })
    expect(callback.statusCode, callback.body).toBe(200)
    const webhostC = callback.json().data
    const refused = await app.inject({ method: 'GET', url: '/api/webhost-c/callback?code=the-code&state=nope' })
    const callbackSchema = document.paths['/api/webhost-c/callback']!.get!.responses
    for (const [response, status] of [
      [callback, '200'],
      [refused, '400'],
    ] as const) {
      const validate = ajv.compile({
        ...callbackSchema[status]!.content!['application/json']!.schema,
        components: document.components,
      })
      expect(validate(response.json()), ajv.errorsText(validate.errors)).toBe(true)
    }

    for (const [list, path] of [
      ['/api/cloud-a/accounts', '/api/cloud-a/accounts'],
      ['/api/selfhost-b/instances', '/api/selfhost-b/instances'],
      ['/api/webhost-c/accounts', '/api/webhost-c/accounts'],
    ] as const) {
      expect((await call('GET', list, path)).json().data).toHaveLength(1)
    }

    const monitors: Array<{ type: 'domain' | 'service'; id: string }> = []
    for (const [base, path, id, items, itemParam] of [
      ['/api/cloud-a/accounts', '/api/cloud-a/accounts/{accountId}', cloudA.id, 'services', 'serviceId'],
      ['/api/selfhost-b/instances', '/api/selfhost-b/instances/{instanceId}', selfhostB.id, 'resources', 'resourceId'],
      ['/api/webhost-c/accounts', '/api/webhost-c/accounts/{accountId}', webhostC.id, 'projects', 'projectId'],
    ] as const) {
      const listed = (await call('GET', `${base}/${id}/${items}`, `${path}/${items}`)).json().data
      expect(listed).toHaveLength(1)
      const created = await call(
        'POST',
        `${base}/${id}/${items}/${listed[0].id}/monitor`,
        `${path}/${items}/{${itemParam}}/monitor`,
        { checkInterval: 5 },
      )
      expect(created.statusCode).toBe(201)
      monitors.push(created.json().data.monitor)
      const again = await call(
        'POST',
        `${base}/${id}/${items}/${listed[0].id}/monitor`,
        `${path}/${items}/{${itemParam}}/monitor`,
      )
      expect(again.statusCode).toBe(409)
    }
    expect(monitors.map((monitor) => monitor.type)).toEqual(['service', 'domain', 'domain'])

    const history = async (monitor: { type: 'domain' | 'service'; id: string }) => {
      const url =
        monitor.type === 'domain'
          ? `/api/domains/${monitor.id}/monitoring/history?range=1h`
          : `/api/services/${monitor.id}/history`
      const response = await app.inject({ method: 'GET', url, headers })
      const entries = response.json().data as Array<{ status: string }>
      return entries.length > 0 ? entries : undefined
    }
    const [vm, site, shop] = await Promise.all(
      monitors.map((monitor) => eventually(() => history(monitor), `results of ${monitor.type} ${monitor.id}`, 30_000)),
    )
    // The vm's port 22 on this machine may or may not be open: a result either way.
    expect(['up', 'down']).toContain(vm![0]!.status)
    expect(site![0]!.status).toBe('up')
    expect(shop![0]!.status).toBe('up')
  })
})
