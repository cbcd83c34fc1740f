import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@guard/shared/testing'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HttpBrowser, MemoryOAuthClient } from '../identity/src/oauth/testing.ts'
import { type GuardProcess, seedDataDir, spawnGuard } from './support/spawn-guard.ts'

const ADMIN = { email: 'admin@guard.local', password: 'embedded-admin-password' }
const REDIRECT = 'http://127.0.0.1:9/oauth/callback'

describe('an MCP assistant authorizes itself at identity through the SDK and calls the collector', () => {
  let dataDir: string
  let guard: GuardProcess
  let identityUrl: string
  let collectorUrl: string

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guard-mcp-oauth-'))
    await seedDataDir(dataDir)
    const identityPort = await freePort()
    const collectorPort = await freePort()
    identityUrl = `http://127.0.0.1:${identityPort}`
    collectorUrl = `http://127.0.0.1:${collectorPort}`
    // `guard start` as `npm start` runs it: nothing tells identity where the collector is.
    guard = spawnGuard(['start'], {
      GUARD_DATA_DIR: dataDir,
      GUARD_IDENTITY_PORT: String(identityPort),
      GUARD_COLLECTOR_PORT: String(collectorPort),
      GUARD_ADMIN_PASSWORD: ADMIN.password,
    })
    await guard.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 50_000)
    const apiKey = guard.output().match(/api key: (guard_\S+)/)?.[1] ?? ''
    const created = await fetch(`${collectorUrl}/api/domains`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.org', name: 'Assistant-visible domain' }),
    })
    expect(created.status).toBe(201)
  }, 60_000)

  afterAll(async () => {
    await guard?.stop('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
  })

  it('discovery, dynamic registration, PKCE and resource through the real sign-in and consent pages, then get_domains_status', async () => {
    const mcpUrl = new URL(`${collectorUrl}/mcp`)
    // It starts with an access token that no longer works, as an assistant whose token was revoked.
    const provider = new MemoryOAuthClient(
      REDIRECT,
      {
        client_name: 'Guard MCP e2e assistant',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      { access_token: 'no-longer-valid', token_type: 'Bearer' },
    )
    const client = new Client({ name: 'guard-e2e-assistant', version: '1.0.0' })

    // The stale token gets 401 with resource_metadata: the SDK discovers the protected resource,
    // identity's RFC 8414 metadata, registers, and sends the user to the authorization URL.
    await expect(client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toThrow(
      UnauthorizedError,
    )
    expect(provider.information?.client_id).toEqual(expect.any(String))
    const authorization = provider.authorizationUrl
    if (!authorization) throw new Error('the SDK did not start an authorization')
    expect(authorization.origin).toBe(identityUrl)
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorization.searchParams.get('resource')).toBe(mcpUrl.href)
    expect(authorization.searchParams.get('scope')?.split(' ')).toContain('read')

    // The user signs in and allows, on identity's own pages.
    const callback = await new HttpBrowser().authorize(authorization.href, ADMIN)
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT)
    const code = callback.searchParams.get('code')
    if (!code) throw new Error(`no code: ${callback.href}`)

    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })
    await transport.finishAuth(code)
    const accessToken = provider.saved?.access_token ?? ''
    const claims = decodeJwt(accessToken)
    expect(claims.aud).toBe(mcpUrl.href)
    expect(String(claims.scope).split(' ')).toContain('read')
    expect(claims.iss).toBe(identityUrl)

    await client.connect(transport)
    const result = await client.callTool({ name: 'get_domains_status', arguments: {} })
    expect(result.isError).toBeFalsy()
    const content = result.structuredContent as { domains: Array<{ name: string }>; summary: { total: number } }
    expect(content.domains.map((domain) => domain.name)).toContain('Assistant-visible domain')
    expect(content.summary.total).toBeGreaterThanOrEqual(1)
    await client.close()
  }, 60_000)
})
