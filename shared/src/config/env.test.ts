import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ConfigError, commonEnv, envTypes, parseEnv, redactConfig, storeEnv } from './env.ts'

const schema = z.object({ ...commonEnv, ...storeEnv, GUARD_COLLECTOR_PORT: envTypes.port.default(4001) })

describe('parseEnv', () => {
  it('applies defaults when variables are unset', () => {
    const env = parseEnv('collector', schema, {})
    expect(env.GUARD_DATA_DIR).toBe('./data')
    expect(env.GUARD_COLLECTOR_PORT).toBe(4001)
    expect(env.CLICKHOUSE_DATABASE).toBe('guard')
  })

  it('fails fast naming every bad variable', () => {
    const parse = () => parseEnv('collector', schema, { GUARD_COLLECTOR_PORT: 'eighty', DATABASE_URL: 'mysql://x' })
    expect(parse).toThrow(ConfigError)
    expect(parse).toThrow(/GUARD_COLLECTOR_PORT/)
    expect(parse).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/)
  })

  it('never echoes a secret value in its error', () => {
    const secret = 'postgres-but-not-really:hunter2@db'
    try {
      parseEnv('collector', schema, { DATABASE_URL: secret })
      expect.unreachable()
    } catch (error) {
      expect(String(error)).not.toContain('hunter2')
    }
  })
})

describe('redactConfig', () => {
  it('hides secrets and connection strings but keeps the rest', () => {
    const redacted = redactConfig({
      DATABASE_URL: 'postgres://u:p@h/db',
      GUARD_SMTP_URL: 'smtp://u:p@h:587',
      GUARD_ADMIN_PASSWORD: 'p',
      GUARD_SECRET_KEY: 'k',
      GUARD_COLLECTOR_PORT: 4001,
      NATS_TOKEN: undefined,
    })
    expect(redacted).toEqual({
      DATABASE_URL: '[redacted]',
      GUARD_SMTP_URL: '[redacted]',
      GUARD_ADMIN_PASSWORD: '[redacted]',
      GUARD_SECRET_KEY: '[redacted]',
      GUARD_COLLECTOR_PORT: 4001,
      NATS_TOKEN: undefined,
    })
  })
})
