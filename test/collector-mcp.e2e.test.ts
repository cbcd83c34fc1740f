import dnsModule from 'node:dns'
import { syncBuiltinESMExports } from 'node:module'
import type { AddressInfo } from 'node:net'
import { createServer, type Server } from 'node:net'
import { createLogger, DEFAULT_ORGANIZATION, MONITORING_API_AUDIENCE, type Stoppable } from '@guard/shared'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { guardTools } from '../collector/src/mcp/tools.ts'
import { resultFor } from '../collector/src/routes/test-helpers.ts'
import { createApiKey } from '../collector/src/services/api-keys/create.ts'
import { applyResultsToState } from '../collector/src/services/monitor-state/apply-results.ts'
import { noPlans } from '../collector/src/services/plans/source.ts'
import { storeResults } from '../collector/src/services/results/store.ts'
import { collectorForTest, startTestIssuer } from '../collector/src/test-support.ts'
import { answerRequests } from '../probe/src/requests.ts'
import { type DnsFixture, startDnsFixture } from '../probe/src/testing/dns-server.ts'

const ORG = DEFAULT_ORGANIZATION.id
const OTHER = 'org-other'
const TOOL_NAMES = guardTools.map((tool) => tool.name)
const outputOf = (name: string) => guardTools.find((tool) => tool.name === name)!.output

/** The monitoring MCP server through the official SDK client, over HTTP, with a probe on the same bus. */
describe('monitoring MCP endpoint', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let issuer: Awaited<ReturnType<typeof startTestIssuer>>
  let probe: Stoppable[]
  let listener: Server
  let dns: DnsFixture
  let resolvers: string[]
  let openPort: number
  let base: string
  let otherKey: string
  const clients: Client[] = []

  beforeAll(async () => {
    issuer = await startTestIssuer()
    harness = await collectorForTest({
      GUARD_IDENTITY_URL: issuer.issuer,
      GUARD_ALLOW_PRIVATE_TARGETS: '1',
      GUARD_RATE_LIMIT_BULK: '1000',
      GUARD_STATUS_PAGE_CACHE_SECONDS: '0',
    })
    // The stand-in issuer has no plan API: nobody's plan limits anything here.
    harness.ctx.plans = noPlans
    app = await buildCollectorApp(harness.ctx)
    base = await app.listen({ port: 0, host: '127.0.0.1' })
    harness.ctx.env.GUARD_COLLECTOR_PUBLIC_URL = base
    probe = await answerRequests(
      harness.ctx.bus,
      'fra',
      true,
      createLogger({ name: 'probe-test', level: 'silent', pretty: false }),
    )
    listener = createServer((socket) => socket.end())
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    openPort = (listener.address() as AddressInfo).port
    // The probe runs in this process: its system resolver becomes the fixture.
    dns = await startDnsFixture({
      'shop.test': [
        { type: 'A', name: 'shop.test', ttl: 120, data: '192.0.2.7' },
        { type: 'TXT', name: 'shop.test', ttl: 60, data: 'v=spf1 -all' },
      ],
    })
    resolvers = dnsModule.getServers()
    dnsModule.setServers([dns.server])
    // The probe imports getServers by name: named exports of builtins follow only once synced.
    syncBuiltinESMExports()

    const call = async (key: string, method: 'POST', url: string, payload: object) => {
      const response = await app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, payload })
      expect(response.statusCode, response.body).toBeLessThan(300)
      return response.json().data
    }
    const secret = await call(harness.apiKey, 'POST', '/api/domains', {
      url: 'https://secret-domain.example',
      name: 'Secret domain',
    })
    const shop = await call(harness.apiKey, 'POST', '/api/domains', { url: 'https://shop.example', name: 'Shop' })
    // Down is confirmed by consecutive failures, not by one.
    const results = [
      resultFor(secret.id, ORG, 'fra', 60, 'up', 42),
      ...[50, 40, 30, 20].map((secondsAgo) => resultFor(shop.id, ORG, 'fra', secondsAgo, 'down', 0)),
    ]
    await storeResults(harness.ctx.timeseries, results)
    await applyResultsToState(harness.ctx.sql, results)
    await call(harness.apiKey, 'POST', '/api/incidents', { title: 'Secret incident', severity: 'critical' })
    const page = await call(harness.apiKey, 'POST', '/api/status-pages', {
      name: 'Shop status',
      slug: 'shop-status',
      isPublic: true,
    })
    await call(harness.apiKey, 'POST', `/api/status-pages/${page.id}/domains`, {
      domainId: shop.id,
      displayName: 'Public shop',
    })
    otherKey = (await createApiKey(harness.ctx.sql, { organizationId: OTHER, name: 'other', permissions: ['*:*'] })).key
    await call(otherKey, 'POST', '/api/domains', { url: 'https://other-org.example', name: 'Other org domain' })
  })
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()))
    dnsModule.setServers(resolvers)
    syncBuiltinESMExports()
    await dns.close()
    await Promise.all(probe.map((responder) => responder.stop()))
    listener.close()
    await app.close()
    await harness.close()
    await issuer.close()
  })

  async function connect(token?: string, path = '/mcp') {
    const client = new Client({ name: 'guard-test', version: '1.0.0' })
    const transport = new StreamableHTTPClientTransport(new URL(`${base}${path}`), {
      ...(token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}),
    })
    await client.connect(transport)
    clients.push(client)
    // Listing caches the output schemas: the SDK client then validates every structuredContent.
    await client.listTools()
    return client
  }

  /** Calls a tool; a successful result must match the tool's own output schema. */
  async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult
    if (!result.isError) {
      expect(outputOf(name).safeParse(result.structuredContent).success, JSON.stringify(result)).toBe(true)
      expect(result.content[0]).toMatchObject({ type: 'text', text: expect.any(String) })
    }
    return result
  }

  const text = (result: CallToolResult) => JSON.stringify(result)

  const tokens = {
    apiKey: () => harness.apiKey,
    userJwt: () =>
      issuer.sign({
        audience: MONITORING_API_AUDIENCE,
        scope: 'openid organizations read',
        organizations: [{ id: ORG, role: 'viewer' }],
      }),
    assistantToken: () =>
      issuer.sign({ audience: `${base}/mcp`, scope: 'read', organizations: [{ id: ORG, role: 'owner' }] }),
  }

  it('lists the tools with output schemas and annotations, and the four widgets', async () => {
    const client = await connect()
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort())
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' })
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(
        !['create_service', 'update_service', 'acknowledge_incident', 'run_synthetic_check'].includes(tool.name),
      )
      expect(tool.annotations?.openWorldHint, tool.name).toBe(tool.name.startsWith('scan_'))
    }
    const widgetOf = Object.fromEntries(
      tools.map((tool) => [tool.name, (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri]),
    )
    expect(widgetOf).toMatchObject({
      get_dashboard_stats: 'ui://guard/dashboard',
      list_incidents: 'ui://guard/incidents',
      get_domains_status: 'ui://guard/domains',
      get_heartbeats_status: 'ui://guard/heartbeats',
    })
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      'ui://guard/dashboard',
      'ui://guard/domains',
      'ui://guard/heartbeats',
      'ui://guard/incidents',
    ])
    for (const resource of resources) {
      const { contents } = await client.readResource({ uri: resource.uri })
      expect(contents[0]).toMatchObject({ uri: resource.uri, mimeType: 'text/html;profile=mcp-app' })
      const html = String((contents[0] as { text: string }).text)
      expect(html).toContain("default-src 'none'")
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/)
    }
  })

  it('answers anonymously from public status pages only, and refuses scans', async () => {
    const client = await connect(undefined, '/api/mcp')
    const dashboard = await call(client, 'get_dashboard_stats')
    expect(dashboard.structuredContent).toMatchObject({ domains: { total: 1, up: 0, down: 1 } })
    const domains = await call(client, 'get_domains_status')
    expect(domains.structuredContent).toMatchObject({
      summary: { total: 1, down: 1 },
      domains: [{ name: 'Public shop', status: 'down', url: null, id: null }],
    })
    const incidents = await call(client, 'list_incidents', {})
    const devices = await call(client, 'get_devices_status', { organizationId: ORG })
    expect(devices.structuredContent).toEqual({ devices: [], total: 0, online: 0, offline: 0 })
    const heartbeats = await call(client, 'get_heartbeats_status', { organizationId: ORG })
    expect(heartbeats.structuredContent).toEqual({ heartbeats: [], total: 0, up: 0, down: 0 })
    for (const result of [dashboard, domains, incidents, devices]) {
      expect(text(result)).not.toMatch(/Secret|secret-domain|Other org/)
    }
    for (const [name, args] of [
      ['scan_dns', { domain: 'shop.test' }],
      ['scan_ports', { host: '127.0.0.1', ports: String(openPort) }],
    ] as const) {
      const refused = await call(client, name, args)
      expect(refused.isError, name).toBe(true)
      expect(text(refused)).toMatch(/signed-in caller/)
    }
  })

  for (const [label, token] of Object.entries(tokens)) {
    it(`with ${label}: calls all six tools on the caller's organization`, async () => {
      const client = await connect(await token())
      const dashboard = await call(client, 'get_dashboard_stats')
      expect(dashboard.structuredContent).toMatchObject({
        domains: { total: 2, up: 1, down: 1 },
        incidents: { active: 1, critical: 1 },
      })
      const domains = await call(client, 'get_domains_status', { organizationId: ORG })
      expect(
        (domains.structuredContent as { domains: Array<{ name: string }> }).domains.map((d) => d.name).sort(),
      ).toEqual(['Secret domain', 'Shop'])
      const incidents = await call(client, 'list_incidents', { severity: 'critical', limit: 5 })
      expect(incidents.structuredContent).toMatchObject({
        total: 1,
        summary: { open: 1, critical: 1 },
        incidents: [{ title: 'Secret incident', severity: 'critical' }],
      })
      const devices = await call(client, 'get_devices_status', { organizationId: ORG })
      expect(devices.structuredContent).toMatchObject({ total: 0 })
      const heartbeats = await call(client, 'get_heartbeats_status', { organizationId: ORG })
      expect(heartbeats.structuredContent).toMatchObject({ total: 0, up: 0, down: 0 })
      const dnsAnswer = await call(client, 'scan_dns', { domain: 'shop.test' })
      expect(dnsAnswer.structuredContent).toEqual({
        domain: 'shop.test',
        records: [
          { type: 'A', name: 'shop.test', value: '192.0.2.7', ttl: 120 },
          { type: 'TXT', name: 'shop.test', value: 'v=spf1 -all', ttl: 60 },
        ],
        total: 2,
      })
      const ports = await call(client, 'scan_ports', { host: '127.0.0.1', ports: `1-3,${openPort}` })
      expect(ports.structuredContent).toEqual({ host: '127.0.0.1', openPorts: [openPort], totalScanned: 4 })
      for (const result of [dashboard, domains, incidents, devices]) expect(text(result)).not.toMatch(/Other org/)
    })
  }

  it("never answers with another organization's data: naming it is a tool error", async () => {
    for (const token of [harness.apiKey, await tokens.userJwt(), await tokens.assistantToken()]) {
      const client = await connect(token)
      for (const name of [
        'get_dashboard_stats',
        'list_incidents',
        'get_domains_status',
        'get_devices_status',
        'get_heartbeats_status',
      ]) {
        const result = await call(client, name, { organizationId: OTHER })
        expect(result.isError, name).toBe(true)
        expect(text(result)).toMatch(/FORBIDDEN: You are not a member of that organization/)
        expect(text(result)).not.toMatch(/Other org/)
      }
    }
    // The other organization's own key sees its domain and none of ours.
    const other = await connect(otherKey)
    const domains = await call(other, 'get_domains_status')
    expect(text(domains)).toContain('Other org domain')
    expect(text(domains)).not.toMatch(/Secret|Shop/)
  })

  it('refuses a bad token with 401 naming the protected-resource metadata', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }
    for (const [path, token] of [
      ['/mcp', 'not-a-token'],
      ['/api/mcp', 'guard_notakey'],
      ['/mcp', await issuer.sign({ audience: 'https://elsewhere.example/mcp', scope: 'read', organizations: [] })],
    ] as const) {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(initialize),
      })
      expect(response.status, path).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource${path}", error="invalid_token"`,
      )
      expect(await response.json()).toMatchObject({ error: 'UNAUTHORIZED' })
    }
  })

  it('asks for the read scope when an assistant token lacks it', async () => {
    const token = await issuer.sign({
      audience: `${base}/api/mcp`,
      scope: 'write',
      organizations: [{ id: ORG, role: 'owner' }],
    })
    const response = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_domains_status' } }),
    })
    expect(response.status).toBe(403)
    expect(response.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="read"/)
  })

  it('serves the protected-resource metadata for both MCP paths', async () => {
    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource', '/mcp'],
      ['/.well-known/oauth-protected-resource/mcp', '/mcp'],
      ['/.well-known/oauth-protected-resource/api/mcp', '/api/mcp'],
    ] as const) {
      const response = await fetch(`${base}${path}`)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({
        resource: `${base}${resource}`,
        authorization_servers: [issuer.issuer],
        scopes_supported: ['read', 'write'],
        bearer_methods_supported: ['header'],
        resource_name: 'Guard monitoring (MCP)',
        resource_documentation: `${base}/openapi.json`,
      })
    }
  })

  it('counts MCP requests like REST requests: headers per caller, scans as bulk', async () => {
    const body = (name: string, args: object) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
    const post = (payload: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${otherKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: payload,
      })
    const read = await post(body('get_dashboard_stats', {}))
    expect(read.headers.get('x-ratelimit-limit')).toBe(String(harness.ctx.env.GUARD_RATE_LIMIT_READ))
    const scan = await post(body('scan_ports', { host: '127.0.0.1', ports: String(openPort) }))
    expect(scan.headers.get('x-ratelimit-limit')).toBe('1000')
    const remaining = Number(scan.headers.get('x-ratelimit-remaining'))
    const again = await post(body('scan_dns', { domain: 'shop.test' }))
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1)
  })
})
