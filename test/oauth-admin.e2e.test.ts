import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runIdentityAdmin } from '../bin/commands/identity-admin/index.ts'

let dataDir: string
const saved = { ...process.env }

/** `guard identity <args>` through the CLI's own dispatcher, in this process; returns the JSON printed. */
async function admin(args: string[]): Promise<Record<string, unknown>> {
  let printed = ''
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed += String(chunk)
    return true
  })
  try {
    await runIdentityAdmin(args)
  } finally {
    write.mockRestore()
  }
  return JSON.parse(printed) as Record<string, unknown>
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'guard-oauth-admin-'))
  process.env.GUARD_DATA_DIR = dataDir
  process.env.LOG_LEVEL = 'silent'
  // Nothing listens there, so the commands open the store directly (under the data directory's lock).
  process.env.GUARD_IDENTITY_URL = `http://127.0.0.1:${await freePort()}`
  delete process.env.GUARD_ADMIN_TOKEN
  delete process.env.GUARD_SECRET_KEY
  delete process.env.DATABASE_URL
})
afterAll(async () => {
  process.env = saved
  await rm(dataDir, { recursive: true, force: true })
})

// Each command opens PGlite and builds the admin API in process: slow on a loaded machine.
describe('guard identity users, orgs, clients and keys print JSON', { timeout: 120_000 }, () => {
  it('orgs create, then users create with a membership in it', async () => {
    const org = await admin(['orgs', 'create', '--name', 'Acme', '--slug', 'acme'])
    expect(org).toEqual({
      id: expect.any(String),
      slug: 'acme',
      name: 'Acme',
      createdAt: expect.any(String),
      members: 0,
      plan: null,
    })
    const user = await admin([
      'users',
      'create',
      '--email',
      'ann@acme.test',
      '--password',
      'correct horse battery',
      '--name',
      'Ann',
      '--org',
      'acme',
      '--role',
      'admin',
    ])
    expect(user).toEqual({
      id: expect.any(String),
      email: 'ann@acme.test',
      name: 'Ann',
      picture: null,
      role: 'user',
      disabled: false,
      createdAt: expect.any(String),
      organizations: [{ id: org.id, slug: 'acme', name: 'Acme', role: 'admin' }],
    })
    expect(JSON.stringify(user)).not.toContain('correct horse')
  })

  it('clients create prints the secret of a confidential client once, and none for a public one', async () => {
    const confidential = await admin([
      'clients',
      'create',
      '--name',
      'Dash',
      '--redirect-uri',
      'https://dash.test/cb',
      '--redirect-uri',
      'https://dash.test/cb2',
      '--no-require-pkce',
    ])
    expect(confidential).toMatchObject({
      client_id: expect.any(String),
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      redirect_uris: ['https://dash.test/cb', 'https://dash.test/cb2'],
      public: false,
      require_pkce: false,
      first_party: false,
    })
    const cli = await admin([
      'clients',
      'create',
      '--name',
      'CLI',
      '--redirect-uri',
      'http://127.0.0.1/cb',
      '--public',
      '--no-require-pkce',
      '--first-party',
    ])
    expect(cli).toMatchObject({ public: true, require_pkce: true, first_party: true })
    expect(cli).not.toHaveProperty('client_secret')
  })

  it('keys rotate prints the new and the previous kid, and the secret key file is private', async () => {
    const first = await admin(['keys', 'rotate'])
    const second = await admin(['keys', 'rotate'])
    // The store's first use made a signing key, which the first rotation makes the previous one.
    expect(first).toEqual({ kid: expect.any(String), previousKid: expect.any(String), retiredKid: null })
    expect(second).toEqual({ kid: expect.any(String), previousKid: first.kid, retiredKid: first.previousKid })
    expect((await stat(join(dataDir, 'secret.key'))).mode & 0o777).toBe(0o600)
  })
})
