import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { freePort } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInPublicClient } from '../identity/src/oauth/testing.ts'
import { type GuardProcess, spawnGuard } from './support/spawn-guard.ts'

const GUARD_BIN = fileURLToPath(new URL('../bin/guard.mjs', import.meta.url))
const REDIRECT = 'http://127.0.0.1:9/callback'
const ADMIN = { email: 'admin@guard.local', password: 'embedded-admin-password' }

describe('embedded mode: a user signed in at identity calls the collector', () => {
  let dataDir: string
  let env: Record<string, string>
  let guard: GuardProcess
  let clientId: string

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guard-oauth-embedded-'))
    env = {
      GUARD_DATA_DIR: dataDir,
      GUARD_IDENTITY_PORT: String(await freePort()),
      GUARD_COLLECTOR_PORT: String(await freePort()),
      GUARD_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
    }
    // PGlite is one process's: the client is registered before the platform starts.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        GUARD_BIN,
        'identity',
        'clients',
        'create',
        '--name',
        'CLI',
        '--redirect-uri',
        REDIRECT,
        '--public',
        '--first-party',
      ],
      { env: { ...process.env, ...env } },
    )
    clientId = (JSON.parse(stdout) as { client_id: string }).client_id
    guard = spawnGuard(['start'], env)
    await guard.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 50_000)
  })

  afterAll(async () => {
    await guard?.stop('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
  })

  const identityUrl = () => `http://127.0.0.1:${env.GUARD_IDENTITY_PORT}`
  const domains = (token: string, headers: Record<string, string> = {}) =>
    fetch(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}/api/domains`, {
      headers: { authorization: `Bearer ${token}`, ...headers },
    })
  const signIn = (scope: string) =>
    signInPublicClient({ identityUrl: identityUrl(), clientId, redirectUri: REDIRECT, scope, credentials: ADMIN })

  it("GET /api/domains accepts the user's read token, scoped by the organizations claim", async () => {
    // A domain of the default organization, created with its API key: the admin is its owner.
    const apiKey = guard.output().match(/api key: (guard_\S+)/)![1]!
    const created = await fetch(`http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}/api/domains`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.org', name: 'Example' }),
    })
    expect(created.status).toBe(201)
    const tokens = await signIn('openid organizations read')
    const response = await domains(tokens.access_token)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ success: true, data: [expect.objectContaining({ name: 'Example' })] })
  })

  it('a token without organizations, without read, or naming a foreign organization, is 403', async () => {
    const withoutOrganizations = await signIn('openid email')
    expect((await domains(withoutOrganizations.access_token)).status).toBe(403)
    const withoutRead = await signIn('openid organizations')
    expect((await domains(withoutRead.access_token)).status).toBe(403)
    const tokens = await signIn('openid organizations read')
    expect((await domains(tokens.access_token, { 'x-organization-id': 'not-mine' })).status).toBe(403)
  })

  it('a forged or garbled token is 401 with the exact body', async () => {
    const response = await domains('eyJhbGciOiJub25lIn0.e30.')
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: 'UNAUTHORIZED', message: 'Invalid or missing authentication token' })
  })
})
