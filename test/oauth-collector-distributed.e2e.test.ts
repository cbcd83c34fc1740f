import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { freePort, startNatsServer, startPostgres } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInPublicClient } from '../identity/src/oauth/testing.ts'
import { type GuardProcess, spawnGuard } from './support/spawn-guard.ts'

const GUARD_BIN = fileURLToPath(new URL('../bin/guard.mjs', import.meta.url))
const REDIRECT = 'http://127.0.0.1:9/callback'
const ADMIN = { email: 'admin@guard.local', password: 'distributed-admin-password' }

const nats = await startNatsServer()
const postgres = await startPostgres()

describe.skipIf(!nats || !postgres)('distributed mode: identity and collector as separate processes', () => {
  const processes: GuardProcess[] = []
  const dirs: string[] = []
  let identityUrl: string
  let collectorUrl: string
  let clientId: string

  const tempDir = async (name: string) => {
    const dir = await mkdtemp(join(tmpdir(), `guard-oauth-${name}-`))
    dirs.push(dir)
    return dir
  }

  beforeAll(async () => {
    const identityPort = await freePort()
    const collectorPort = await freePort()
    identityUrl = `http://127.0.0.1:${identityPort}`
    collectorUrl = `http://127.0.0.1:${collectorPort}`
    const identityEnv = {
      DATABASE_URL: postgres!.url,
      GUARD_DATA_DIR: await tempDir('identity'),
      GUARD_IDENTITY_PORT: String(identityPort),
      GUARD_IDENTITY_URL: identityUrl,
      GUARD_SECRET_KEY: 'distributed-test-secret-key-0123456789',
      GUARD_ADMIN_PASSWORD: ADMIN.password,
    }
    const identity = spawnGuard(['identity'], identityEnv)
    processes.push(identity)
    await identity.waitFor(/identity: http:\/\/127\.0\.0\.1:\d+/, 40_000)
    // With PostgreSQL the admin command runs beside the live identity.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [GUARD_BIN, 'identity', 'clients', 'create', '--name', 'CLI', '--redirect-uri', REDIRECT, '--public'],
      { env: { ...process.env, ...identityEnv, LOG_LEVEL: 'warn' } },
    )
    clientId = (JSON.parse(stdout) as { client_id: string }).client_id
    const collector = spawnGuard(['collector'], {
      NATS_URL: nats!.url,
      DATABASE_URL: postgres!.url,
      GUARD_DATA_DIR: await tempDir('collector'),
      GUARD_COLLECTOR_PORT: String(collectorPort),
      GUARD_IDENTITY_URL: identityUrl,
      // Shared with identity: the collector signs its plan lookups with it (README "Plans").
      GUARD_SECRET_KEY: identityEnv.GUARD_SECRET_KEY,
    })
    processes.push(collector)
    await collector.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 40_000)
  })

  afterAll(async () => {
    await Promise.all(processes.map((child) => child.stop('SIGKILL')))
    await nats?.stop()
    await postgres?.stop()
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  })

  it('a user signs in at identity (through consent) and calls GET /api/domains with the access token', async () => {
    const tokens = await signInPublicClient({
      identityUrl,
      clientId,
      redirectUri: REDIRECT,
      scope: 'openid organizations read',
      credentials: ADMIN,
    })
    const response = await fetch(`${collectorUrl}/api/domains`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ success: true, data: [] })
  })
})
