import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseIdentityEnv, startIdentity } from '@guard/identity'
import { createLogger, openRelationalStore } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runIdentityAdmin } from '../bin/commands/identity-admin/index.ts'

let dataDir: string
const saved = { ...process.env }

/**
 * Runs `guard identity <args>` in this process, through the same dispatcher as the CLI, and
 * returns what it printed. In-process because each spawned command would pay tsx start-up and
 * a PGlite open; refused input (which exits the process) is covered by the service tests.
 */
async function admin(args: string[]): Promise<unknown> {
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
  return JSON.parse(printed)
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'guard-identity-admin-'))
  process.env.GUARD_DATA_DIR = dataDir
  process.env.LOG_LEVEL = 'silent'
})
afterAll(async () => {
  process.env = saved
  await rm(dataDir, { recursive: true, force: true })
})

describe('identity admin: catalog and changelog', () => {
  it('guard identity catalog import publishes the catalog file', async () => {
    const file = join(dataDir, 'catalog.json')
    await writeFile(
      file,
      JSON.stringify({
        plans: [{ id: 'starter', name: 'Starter', currency: 'EUR', isActive: true, seats: 3 }],
        addons: [{ id: 'sms', name: 'SMS' }],
        addOnCaps: { starter: { sms: 2 } },
      }),
    )
    expect(await admin(['catalog', 'import', file])).toMatchObject({ plans: 1, updatedAt: expect.any(String) })
  })

  it('guard identity changelog add and import publish release notes', async () => {
    const added = await admin([
      'changelog',
      'add',
      '--app',
      'monitoring',
      '--release',
      '2.0.0',
      '--name',
      'Faster checks',
      '--content',
      '## Faster',
      '--created-time',
      '2026-11-20T10:00:00Z',
    ])
    expect(added).toEqual({ added: 1 })
    const file = join(dataDir, 'entries.json')
    const entry = {
      id: 'agent-1-0',
      name: 'Agent 1.0',
      app: 'devices',
      version: '1.0.0',
      createdTime: '2026-11-21T10:00:00Z',
      contentMd: '## Agent',
    }
    await writeFile(file, JSON.stringify([entry]))
    expect(await admin(['changelog', 'import', file])).toEqual({ added: 1 })
  })

  it('the published catalog and changelog are served, and the example is not seeded over them', async () => {
    const env = parseIdentityEnv({ ...process.env, GUARD_IDENTITY_PORT: '0', GUARD_IDENTITY_HOST: '127.0.0.1' })
    const sql = await openRelationalStore({ dataDir })
    const identity = await startIdentity({
      env,
      log: createLogger({ name: 'test', level: 'silent', pretty: false }),
      sql,
    })
    try {
      const plans = (await (await fetch(`${identity.url}/api/v1/plans`)).json()) as { source: string; plans: unknown[] }
      expect(plans.source).toBe('db')
      expect(plans.plans).toEqual([{ id: 'starter', name: 'Starter', currency: 'EUR', isActive: true, seats: 3 }])
      const changelog = (await (await fetch(`${identity.url}/api/v1/changelog`)).json()) as {
        entries: Array<{ name: string }>
      }
      expect(changelog.entries.map((entry) => entry.name)).toEqual(['Agent 1.0', 'Faster checks'])
    } finally {
      await identity.close()
      await sql.close()
    }
  })
})
