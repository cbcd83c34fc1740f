import { DEFAULT_ORGANIZATION, MONITORING_API_AUDIENCE } from '@guard/shared'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { noPlans } from '../services/plans/source.ts'
import { collectorForTest, startTestIssuer } from '../test-support.ts'

const ORG = DEFAULT_ORGANIZATION.id

/**
 * Users' access tokens, signed as identity signs them and verified by the production
 * authentication against a key set, on the REST API and, through the MCP SDK client, on MCP.
 */
describe('a user token does what its scopes grant, within the member’s role', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  let issuer: Awaited<ReturnType<typeof startTestIssuer>>
  let base: string

  beforeAll(async () => {
    issuer = await startTestIssuer()
    harness = await collectorForTest({ GUARD_IDENTITY_URL: issuer.issuer })
    // The stand-in issuer has no plan API: nobody's plan limits anything here.
    harness.ctx.plans = noPlans
    app = await buildCollectorApp(harness.ctx)
    base = await app.listen({ port: 0, host: '127.0.0.1' })
    harness.ctx.env.GUARD_COLLECTOR_PUBLIC_URL = base
  })
  afterAll(async () => {
    await app?.close()
    await harness?.close()
    await issuer?.close()
  })

  const token = (scope: string, role = 'owner') =>
    issuer.sign({ audience: MONITORING_API_AUDIENCE, scope, organizations: [{ id: ORG, role }] })
  const request = async (scope: string, method: 'GET' | 'POST', url: string, payload?: object, role?: string) => {
    const response = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${await token(scope, role)}` },
      ...(payload ? { payload } : {}),
    })
    return { status: response.statusCode, body: response.json() }
  }
  const newDomain = { url: 'https://scoped.example' }
  const permanentKey = { name: 'forever', permissions: ['*:*'] }

  it('read reads, and its writes and API keys are 403 however high the role', async () => {
    expect((await request('openid read', 'GET', '/api/domains')).status).toBe(200)
    expect(await request('openid read', 'POST', '/api/domains', newDomain)).toMatchObject({
      status: 403,
      body: { error: 'FORBIDDEN' },
    })
    expect((await request('openid read', 'POST', '/api-keys', permanentKey)).status).toBe(403)
  })

  it('organizations alone names the organizations and may do nothing in them', async () => {
    expect((await request('openid organizations', 'GET', '/api/domains')).status).toBe(403)
    expect((await request('openid organizations', 'POST', '/api/domains', newDomain)).status).toBe(403)
    expect((await request('openid organizations', 'POST', '/api-keys', permanentKey)).status).toBe(403)
  })

  it('write writes monitors, and still mints no API key', async () => {
    expect((await request('openid read write', 'POST', '/api/domains', newDomain)).status).toBe(201)
    expect((await request('openid read write', 'POST', '/api-keys', permanentKey)).status).toBe(403)
  })

  it('the first-party scope api-keys:write mints keys, for admins and owners only', async () => {
    const firstParty = 'openid organizations read write api-keys:write'
    const created = await request(
      firstParty,
      'POST',
      '/api-keys',
      { name: 'ci', permissions: ['domains:read'] },
      'admin',
    )
    expect(created).toMatchObject({ status: 201, body: { data: { permissions: ['domains:read'] } } })
    expect((await request(firstParty, 'POST', '/api-keys', permanentKey, 'member')).status).toBe(403)
  })

  it('on MCP, a token without read is asked for it, and a read token calls the tools', async () => {
    const connect = async (scope: string) => {
      const client = new Client({ name: 'scopes-test', version: '1.0.0' })
      const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${await token(scope)}` } },
      })
      await client.connect(transport)
      return client
    }
    const reader = await connect('openid organizations read')
    const read = (await reader.callTool({ name: 'get_domains_status', arguments: {} })) as CallToolResult
    expect(read.isError).toBeFalsy()
    await reader.close()
    const stranger = await connect('openid organizations')
    await expect(stranger.callTool({ name: 'get_domains_status', arguments: {} })).rejects.toThrow(/403|scope/i)
    await stranger.close()
  })
})
