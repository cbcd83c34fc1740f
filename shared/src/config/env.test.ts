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

  it("takes a NATS cluster's servers separated by commas and names a bad one", () => {
    const env = parseEnv('collector', schema, {
      NATS_URL: 'nats://a.example:4222, nats://b.example:4222,tls://c.example:4222',
      GUARD_STREAM_REPLICAS: '3',
    })
    expect(env.NATS_URL).toContain('b.example')
    expect(env.GUARD_STREAM_REPLICAS).toBe(3)
    expect(parseEnv('collector', schema, {}).GUARD_STREAM_REPLICAS).toBe(1)
    for (const NATS_URL of ['nats://a.example:4222,', 'nats://a.example:4222,http://b.example', 'nats://']) {
      expect(() => parseEnv('collector', schema, { NATS_URL })).toThrow(/NATS_URL: must be nats:\/\/host:port/)
    }
    expect(() => parseEnv('collector', schema, { GUARD_STREAM_REPLICAS: '0' })).toThrow(/GUARD_STREAM_REPLICAS/)
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
