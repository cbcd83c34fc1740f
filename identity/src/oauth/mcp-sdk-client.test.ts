import { createServer, type Server } from 'node:http'
import { auth } from '@modelcontextprotocol/sdk/client/auth.js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HttpBrowser, MemoryOAuthClient, startTestIdentity, TEST_PASSWORD, type TestIdentity } from './testing.ts'

const REDIRECT = 'http://localhost:9/callback'

let identity: TestIdentity
let resourceServer: Server
let mcpUrl: string

/**
 * A stand-in protected resource that only publishes RFC 9728 metadata naming identity, so this
 * test proves identity's side alone; test/mcp-oauth.e2e.test.ts runs the same flow against the collector.
 */
beforeAll(async () => {
  resourceServer = createServer((request, response) => {
    if (request.url === '/.well-known/oauth-protected-resource/mcp') {
      response.setHeader('content-type', 'application/json')
      response.end(
        JSON.stringify({
          resource: mcpUrl,
          authorization_servers: [identity.url],
          scopes_supported: ['read', 'write'],
        }),
      )
    } else {
      response.statusCode = 404
      response.end()
    }
  })
  await new Promise<void>((resolve) => resourceServer.listen(0, '127.0.0.1', resolve))
  const address = resourceServer.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  mcpUrl = `http://127.0.0.1:${address.port}/mcp`
  identity = await startTestIdentity({ mcpResources: [mcpUrl] })
})
afterAll(async () => {
  await identity?.close()
  resourceServer?.close()
})

describe('the MCP SDK OAuth client against identity', () => {
  it('discovers identity, registers, authorizes with PKCE and resource, and gets a token for the resource', async () => {
    const provider = new MemoryOAuthClient(REDIRECT, {
      client_name: 'SDK client',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    })
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe('REDIRECT')
    expect(provider.information?.client_id).toEqual(expect.any(String))
    const authorization = provider.authorizationUrl
    if (!authorization) throw new Error('no authorization URL')
    expect(authorization.searchParams.get('resource')).toBe(mcpUrl)
    expect(authorization.searchParams.get('scope')).toBe('read write')

    const callback = await new HttpBrowser().authorize(authorization.href, {
      email: identity.user.email,
      password: TEST_PASSWORD,
    })
    const code = callback.searchParams.get('code') ?? ''
    expect(await auth(provider, { serverUrl: mcpUrl, authorizationCode: code })).toBe('AUTHORIZED')
    const claims = decodeJwt(provider.saved?.access_token ?? '')
    expect(claims).toMatchObject({ aud: mcpUrl, scope: 'read write', iss: identity.url })

    // The SDK refreshes with the same resource; the new token keeps its audience.
    const first = provider.saved?.access_token
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED')
    expect(provider.saved?.access_token).not.toBe(first)
    expect(decodeJwt(provider.saved?.access_token ?? '').aud).toBe(mcpUrl)
  })
})
