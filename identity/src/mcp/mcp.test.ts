import { createLogger } from '@guard/shared'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PlatformTestIdentity, startPlatformIdentity } from '../routes/testing.ts'
import { getCatalog } from '../services/catalog/get.ts'
import { readDoc } from '../services/docs/read.ts'

let identity: PlatformTestIdentity
let client: Client

beforeAll(async () => {
  identity = await startPlatformIdentity({ allowedOrigins: ['https://assistant.example'] })
  client = new Client({ name: 'guard-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${identity.url}/mcp`)))
})
afterAll(async () => {
  await client?.close()
  await identity?.close()
})

const TOOLS = [
  'platform_get_developer_docs',
  'platform_get_overview',
  'platform_get_when_to_use',
  'platform_list_products',
]

const rpc = (body: string | Buffer, headers: Record<string, string> = {}, path = '/mcp') =>
  fetch(`${identity.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  })

describe('platform MCP server', () => {
  it('the handshake at GET /.well-known/mcp has protocol version, capabilities, server info, resources, instructions, transport and tools', async () => {
    const handshake = (await (await fetch(`${identity.url}/.well-known/mcp`)).json()) as Record<string, unknown>
    expect(handshake.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(handshake).toHaveProperty('capabilities.tools')
    expect(handshake).toHaveProperty('serverInfo.name', 'guard-platform')
    expect(handshake.instructions).toEqual(expect.any(String))
    expect(handshake).toHaveProperty('transport.url', `${identity.url}/mcp`)
    const { resources } = await client.listResources()
    expect(handshake.resources).toEqual(
      resources.map(({ uri, name, title, description, mimeType }) => ({ uri, name, title, description, mimeType })),
    )
    expect((handshake.tools as Array<{ name: string }>).map((tool) => tool.name).sort()).toEqual(TOOLS)
  })

  it('the SDK client initializes over Streamable HTTP and pings', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'guard-platform' })
    expect(client.getInstructions()).toContain('platform_get_overview')
    expect(await client.ping()).toEqual({})
  })

  it('every tool has an input schema, an output schema and read-only annotations', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS)
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object')
      expect(tool.outputSchema?.type, tool.name).toBe('object')
      expect(tool.annotations, tool.name).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        openWorldHint: false,
      })
    }
  })

  it('every tool answers with structuredContent and the same JSON as a text fallback', async () => {
    const { tools } = await client.listTools()
    for (const tool of tools) {
      const result = await client.callTool({ name: tool.name, arguments: {} })
      expect(result.isError, tool.name).toBeFalsy()
      const [text] = result.content as Array<{ type: string; text: string }>
      expect(text?.type).toBe('text')
      expect(JSON.parse(text!.text)).toEqual(result.structuredContent)
    }
  })

  it('tool content comes from the catalog, changelog and documentation', async () => {
    const overview = (await client.callTool({ name: 'platform_get_overview', arguments: {} })).structuredContent as {
      summary: string
      plans: Array<{ id: string }>
      latestReleases: Array<{ app: string; version: string }>
    }
    const catalog = await getCatalog(identity.sql, createLogger({ name: 'test', level: 'silent', pretty: false }))
    expect(overview.plans.map((plan) => plan.id)).toEqual(catalog.plans.map((plan) => plan.id))
    expect(overview.summary).toContain(readDoc('overview').markdown.split('\n')[2])
    expect(overview.latestReleases).toContainEqual(expect.objectContaining({ app: 'platform', version: '0.1.0' }))

    await identity.sql.query(
      `UPDATE identity.catalog SET document = jsonb_set(document, '{plans,0,name}', '"Renamed"')`,
    )
    const products = (await client.callTool({ name: 'platform_list_products', arguments: {} })).structuredContent as {
      plans: Array<{ name: string }>
      products: Array<{ slug: string }>
    }
    expect(products.plans[0]?.name).toBe('Renamed')
    expect(products.products.map((product) => product.slug)).toContain('monitoring')

    const docs = (
      await client.callTool({ name: 'platform_get_developer_docs', arguments: { topic: 'authentication' } })
    ).structuredContent as { markdown: string }
    expect(docs.markdown).toBe(readDoc('authentication').markdown)

    const guide = (await client.callTool({ name: 'platform_get_when_to_use', arguments: { product: 'devices' } }))
      .structuredContent as { products: Array<{ slug: string }> }
    expect(guide.products.map((product) => product.slug)).toEqual(['devices'])
  })

  it('an unknown product is a tool error the model can read', async () => {
    const result = await client.callTool({ name: 'platform_get_when_to_use', arguments: { product: 'teleport' } })
    expect(result.isError).toBe(true)
    expect((result.content as Array<{ text: string }>)[0]?.text).toContain('monitoring')
  })

  it('resources have https addresses and guard:// addresses, and every one is readable', async () => {
    const { resources } = await client.listResources()
    expect(resources.some((resource) => resource.uri.startsWith('https://'))).toBe(true)
    expect(resources.some((resource) => resource.uri.startsWith('guard://docs/'))).toBe(true)
    for (const resource of resources) {
      const { contents } = await client.readResource({ uri: resource.uri })
      expect(contents[0]?.uri, resource.uri).toBe(resource.uri)
      expect(contents[0]?.mimeType, resource.uri).toBe(resource.mimeType)
      const text = (contents[0] as { text: string }).text
      expect(text.length, resource.uri).toBeGreaterThan(0)
      if (resource.mimeType === 'application/json') JSON.parse(text)
    }
  })

  it('POST /.well-known/mcp serves the same JSON-RPC as POST /mcp', async () => {
    const body = '{"jsonrpc":"2.0","id":7,"method":"tools/list"}'
    const [a, b] = await Promise.all([rpc(body), rpc(body, {}, '/.well-known/mcp')])
    expect(a.status).toBe(200)
    expect(await a.json()).toEqual(await b.json())
  })

  it('a notification is answered 202 with no body', async () => {
    const response = await rpc('{"jsonrpc":"2.0","method":"notifications/initialized"}')
    expect(response.status).toBe(202)
    expect(await response.text()).toBe('')
  })

  it('malformed JSON is a JSON-RPC -32700 parse error', async () => {
    const response = await rpc('{"jsonrpc":"2.0","id":1,"method":')
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
  })

  it('a lone surrogate escape is a JSON-RPC -32700 parse error naming where it is', async () => {
    const response = await rpc(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"platform_list_products","arguments":{"q":"a\\ud83d"}}}',
    )
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      error: { code: -32700, message: 'Parse error: message.params.arguments.q contains a lone surrogate' },
    })
  })

  it('a body that is not UTF-8 is a 400 problem saying so', async () => {
    const response = await rpc(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","x":"'),
        Buffer.from([0xc0, 0xaf, 0x22, 0x7d]),
      ]),
    )
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: 'VALIDATION_ERROR', detail: 'Request body is not valid UTF-8' })
  })

  it('an unknown method is a JSON-RPC -32601 error', async () => {
    const response = await rpc('{"jsonrpc":"2.0","id":2,"method":"prompts/teleport"}')
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32601 } })
  })

  it('bad params are a JSON-RPC -32602 error', async () => {
    const response = await rpc('{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":42}}')
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32602 } })
  })

  it('a client that accepts only application/json is served JSON', async () => {
    const response = await rpc('{"jsonrpc":"2.0","id":4,"method":"ping"}', { accept: 'application/json' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 4, result: {} })
  })

  it('Origin is validated against DNS rebinding', async () => {
    const ping = '{"jsonrpc":"2.0","id":5,"method":"ping"}'
    const evil = await rpc(ping, { origin: 'http://evil.example.com', host: 'evil.example.com' })
    expect(evil.status).toBe(403)
    expect(await evil.json()).toMatchObject({ error: { code: -32000 } })
    // Same Host and Origin is exactly what a rebinding attack sends: it proves nothing.
    expect((await rpc(ping, { origin: 'http://evil.example.com' })).status).toBe(403)
    for (const origin of [identity.url, 'http://localhost:5173', 'https://assistant.example']) {
      expect((await rpc(ping, { origin })).status, origin).toBe(200)
    }
    expect((await rpc(ping)).status).toBe(200)
  })
})
