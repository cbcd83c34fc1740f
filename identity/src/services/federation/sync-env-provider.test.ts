import { decryptSecret, openMigratedTestRelationalStore, type RelationalStore } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IDENTITY_MIGRATIONS } from '../../server.ts'
import { findFederationProvider } from './find-provider.ts'
import { ENV_PROVIDER_ID, syncEnvFederationProvider } from './sync-env-provider.ts'

const KEY = Buffer.alloc(32, 9)
let sql: RelationalStore

beforeAll(async () => {
  sql = await openMigratedTestRelationalStore([IDENTITY_MIGRATIONS])
})
afterAll(() => sql?.close())

describe("the installation's provider from GUARD_SSO_*", () => {
  it('is created, updated at the next start, removed when unset, and refused half-configured', async () => {
    const env = {
      GUARD_SSO_ISSUER: 'https://login.corp.example/',
      GUARD_SSO_CLIENT_ID: 'guard',
      GUARD_SSO_CLIENT_SECRET: 'first-secret',
      GUARD_SSO_NAME: 'Corp',
      GUARD_SSO_ALLOWED_DOMAINS: ['corp.example'],
    }
    expect(await syncEnvFederationProvider(sql, KEY, env)).toBe(true)
    await syncEnvFederationProvider(sql, KEY, { ...env, GUARD_SSO_CLIENT_SECRET: 'second-secret', GUARD_SSO_JIT: true })
    const provider = await findFederationProvider(sql, ENV_PROVIDER_ID)
    expect(provider).toMatchObject({
      organizationId: null,
      issuer: 'https://login.corp.example',
      name: 'Corp',
      allowedDomains: ['corp.example'],
      jitProvisioning: true,
    })
    expect(decryptSecret(KEY, provider?.clientSecretEncrypted ?? '')).toBe('second-secret')

    await expect(syncEnvFederationProvider(sql, KEY, { GUARD_SSO_ISSUER: env.GUARD_SSO_ISSUER })).rejects.toThrow(
      /set together/,
    )
    expect(await syncEnvFederationProvider(sql, KEY, {})).toBe(false)
    expect(await findFederationProvider(sql, ENV_PROVIDER_ID)).toBeUndefined()
  })
})
