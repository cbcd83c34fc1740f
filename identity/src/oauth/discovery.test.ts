import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestIdentity, type TestIdentity } from './testing.ts'

let identity: TestIdentity
beforeAll(async () => {
  identity = await startTestIdentity()
})
afterAll(() => identity?.close())

const metadata = async (path: string) =>
  (await (await fetch(`${identity.url}${path}`)).json()) as { scopes_supported: string[] }

describe('published scopes', () => {
  it("the OpenID document lists only the spec's four scopes", async () => {
    const { scopes_supported } = await metadata('/.well-known/openid-configuration')
    expect(scopes_supported).toEqual(['openid', 'email', 'profile', 'organizations'])
  })

  it('the RFC 8414 document adds the MCP scopes read and write, and no first-party or admin scope', async () => {
    const { scopes_supported } = await metadata('/.well-known/oauth-authorization-server')
    expect(scopes_supported).toEqual(['openid', 'email', 'profile', 'organizations', 'read', 'write'])
  })
})
