import { ConfigError } from '@guard/shared'
import { describe, expect, it } from 'vitest'
import { parseIdentityEnv } from '../env.ts'
import { platformOptionsFromEnv } from './platform.ts'

const sql = { query: async () => ({ rows: [], affectedRows: 0 }), transaction: async () => undefined as never }

describe('platform configuration', () => {
  it('trusted proxies and MCP origins are comma-separated lists, empty by default', () => {
    expect(platformOptionsFromEnv(sql, parseIdentityEnv({}))).toMatchObject({ trustedProxies: [], allowedOrigins: [] })
    const options = platformOptionsFromEnv(
      sql,
      parseIdentityEnv({
        GUARD_TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1,fd00::/8',
        GUARD_MCP_ALLOWED_ORIGINS: 'https://assistant.example/, http://localhost:3000',
        GUARD_IDENTITY_URL: 'https://id.example/',
      }),
    )
    expect(options).toMatchObject({
      trustedProxies: ['10.0.0.0/8', '192.0.2.1', 'fd00::/8'],
      allowedOrigins: ['https://assistant.example', 'http://localhost:3000'],
      publicUrl: 'https://id.example',
    })
  })

  it('a trusted proxy that is not an address or CIDR stops the start naming the variable', () => {
    for (const value of ['proxy.internal', '10.0.0.0/33', '10.0.0.1/8/1']) {
      expect(() => parseIdentityEnv({ GUARD_TRUSTED_PROXIES: value })).toThrow(ConfigError)
      expect(() => parseIdentityEnv({ GUARD_TRUSTED_PROXIES: value })).toThrow(/GUARD_TRUSTED_PROXIES/)
    }
  })
})
