import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@guard/shared/testing'
import * as client from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HttpBrowser } from '../identity/src/oauth/testing.ts'
import { type GuardProcess, runGuard, spawnGuard } from './support/spawn-guard.ts'

const REDIRECT = 'http://127.0.0.1:9/callback'
const ADMIN = { email: 'admin@guard.local', password: 'operator-chosen-admin-password' }
const ANN = { email: 'ann@acme.test', password: 'ann-correct-horse-battery' }

/** The files a start writes besides the stores, with their contents and modification times. */
async function snapshot(dataDir: string) {
  const files = ['guard.lock', 'credentials.json', 'secret.key']
  return Promise.all(
    files.map(async (file) => {
      const path = join(dataDir, file)
      return { file, content: await readFile(path, 'utf8'), mtimeMs: (await stat(path)).mtimeMs }
    }),
  )
}

/** openid-client v6 against the running identity: PKCE, state, nonce, ID token checks. */
async function signIn(
  identityUrl: string,
  clientId: string,
  credentials: { email: string; password: string },
  scope: string,
) {
  const config = await client.discovery(new URL(identityUrl), clientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  })
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  })
  const callback = await new HttpBrowser().authorize(url.href, credentials)
  return client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  })
}

describe('operating a running Guard: one owner per data directory, the CLI through the admin API', () => {
  let dataDir: string
  let env: Record<string, string>
  /** What an operator's shell has: only where the data directory is. */
  let cli: Record<string, string>
  let guard: GuardProcess
  let identityUrl: string
  let collectorUrl: string
  let annId: string
  let clientId: string

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guard-operations-'))
    env = {
      GUARD_DATA_DIR: dataDir,
      GUARD_IDENTITY_PORT: String(await freePort()),
      GUARD_COLLECTOR_PORT: String(await freePort()),
      GUARD_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
    }
    cli = { GUARD_DATA_DIR: dataDir, LOG_LEVEL: 'info' }
    identityUrl = `http://127.0.0.1:${env.GUARD_IDENTITY_PORT}`
    collectorUrl = `http://127.0.0.1:${env.GUARD_COLLECTOR_PORT}`
  })

  afterAll(async () => {
    await guard?.stop('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
  })

  it('a start on a busy port fails before the data directory changes', async () => {
    const busy: Server = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    const port = (busy.address() as { port: number }).port
    const fresh = join(dataDir, 'fresh')
    await mkdir(fresh)
    try {
      const run = await runGuard(['start'], { ...env, GUARD_DATA_DIR: fresh, GUARD_COLLECTOR_PORT: String(port) })
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(`collector cannot listen on 127.0.0.1:${port}: the port is in use`)
      expect(await readdir(fresh)).toEqual([])
    } finally {
      busy.close()
      await rm(fresh, { recursive: true })
    }
  }, 60_000)

  it('starts without ever printing the admin password the operator set', async () => {
    guard = spawnGuard(['start'], env)
    await guard.waitFor(/collector: http:\/\/127\.0\.0\.1:\d+/, 90_000)
    expect(guard.output()).toContain(`admin: ${ADMIN.email} (password from GUARD_ADMIN_PASSWORD)`)
    const credentials = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8'))
    expect(credentials.adminToken).toMatch(/^guard_admin_/)
    expect(JSON.stringify(credentials)).not.toContain(ADMIN.password)
  }, 100_000)

  it('a second guard start on the same data directory fails fast with the lock message and changes nothing', async () => {
    const before = await snapshot(dataDir)
    const run = await runGuard(['start'], {
      ...env,
      GUARD_IDENTITY_PORT: String(await freePort()),
      GUARD_COLLECTOR_PORT: String(await freePort()),
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`is in use by another Guard process (pid ${guard.child.pid}, \`guard start\``)
    expect(await snapshot(dataDir)).toEqual(before)
  }, 60_000)

  it('the CLI creates a user and a public client, and openid-client signs the user in through it at once', async () => {
    const user = await runGuard(
      [
        'identity',
        'users',
        'create',
        '--email',
        ANN.email,
        '--password',
        ANN.password,
        '--name',
        'Ann',
        '--org',
        'default',
        '--role',
        'viewer',
      ],
      cli,
    )
    expect(user.stderr).toBe('')
    expect(user.code).toBe(0)
    const created = JSON.parse(user.stdout)
    expect(created).toMatchObject({ email: ANN.email, organizations: [{ slug: 'default', role: 'viewer' }] })
    expect(user.stdout).not.toContain(ANN.password)
    annId = created.id

    const registered = await runGuard(
      ['identity', 'clients', 'create', '--name', 'App', '--redirect-uri', REDIRECT, '--public', '--first-party'],
      cli,
    )
    expect(registered.code).toBe(0)
    clientId = JSON.parse(registered.stdout).client_id

    const tokens = await signIn(identityUrl, clientId, ANN, 'openid email organizations')
    expect(tokens.claims()).toMatchObject({ sub: annId, email: ANN.email })
  }, 60_000)

  it('the admin API refuses unauthenticated (401) and non-admin (403) callers; the audit log records each change', async () => {
    const users = `${identityUrl}/api/v1/admin/users`
    const none = await fetch(users)
    expect(none.status).toBe(401)
    expect(none.headers.get('content-type')).toContain('application/problem+json')
    expect((await fetch(users, { headers: { authorization: 'Bearer guard_admin_wrong' } })).status).toBe(401)
    const ann = await signIn(identityUrl, clientId, ANN, 'openid')
    const forbidden = await fetch(users, { headers: { authorization: `Bearer ${ann.access_token}` } })
    expect(forbidden.status).toBe(403)
    expect(await forbidden.json()).toMatchObject({ code: 'FORBIDDEN' })

    const audit = await runGuard(['identity', 'audit', '--limit', '10'], cli)
    expect(audit.code).toBe(0)
    const entries = JSON.parse(audit.stdout).entries as Array<Record<string, unknown>>
    const actions = entries.map((entry) => entry.action)
    expect(actions).toEqual(expect.arrayContaining(['user.create', 'client.create']))
    expect(entries.find((entry) => entry.action === 'user.create')).toMatchObject({
      actor: { type: 'admin_token', label: 'admin token (created on first start)' },
      target: { type: 'user', id: annId },
      ip: '127.0.0.1',
      at: expect.any(String),
    })
    expect(audit.stdout).not.toContain(ANN.password)
  }, 60_000)

  it("a viewer's token reads domains at the collector and is refused writes, even with the write scope", async () => {
    const tokens = await signIn(identityUrl, clientId, ANN, 'openid organizations read write')
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${collectorUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
    expect((await call('GET', '/api/domains')).status).toBe(200)
    expect((await call('POST', '/api/domains', { url: 'https://example.org' })).status).toBe(403)
    expect((await call('POST', '/api-keys', { name: 'k', permissions: ['domains:read'] })).status).toBe(403)
  })

  it('reset-password lets the admin sign in again, and the operator password is never in the output or logs', async () => {
    const reset = await runGuard(['identity', 'users', 'reset-password', ADMIN.email], cli)
    expect(reset.code).toBe(0)
    const { password } = JSON.parse(reset.stdout) as { password: string }
    expect(password.length).toBeGreaterThanOrEqual(20)
    await expect(signIn(identityUrl, clientId, ADMIN, 'openid')).rejects.toThrow(/401/)
    const tokens = await signIn(identityUrl, clientId, { email: ADMIN.email, password }, 'openid email')
    expect(tokens.claims()).toMatchObject({ email: ADMIN.email })
    expect(guard.output()).not.toContain(ADMIN.password)
  }, 60_000)
})
