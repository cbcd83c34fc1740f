import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runGuard } from './support/spawn-guard.ts'

/** Every command and admin group, each asked for its help. */
const HELP = [
  ['start'],
  ['identity'],
  ['collector'],
  ['probe'],
  ['agent'],
  ['monitor'],
  ['bench'],
  ['help'],
  ['identity', 'users'],
  ['identity', 'orgs'],
  ['identity', 'clients'],
  ['identity', 'keys'],
  ['identity', 'audit'],
  ['identity', 'catalog'],
  ['identity', 'changelog'],
  ['identity', 'users', 'create'],
]

describe('guard command line', () => {
  let root: string
  let env: Record<string, string>

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'guard-cli-'))
    // Any store opened would create files here; NATS_URL unset would start nothing either way.
    env = { GUARD_DATA_DIR: join(root, 'data'), GUARD_IDENTITY_PORT: '1', GUARD_COLLECTOR_PORT: '1' }
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('`--help` of every command prints its usage and exits 0 without opening a store', async () => {
    // Two at a time: each run pays tsx's start-up.
    const runs: Array<{ args: string[]; code: number | null; stdout: string; stderr: string }> = []
    for (let i = 0; i < HELP.length; i += 2) {
      const batch = HELP.slice(i, i + 2)
      runs.push(
        ...(await Promise.all(
          batch.map(async (args) => ({ args, ...(await runGuard([...args, '--help'], env, 30_000)) })),
        )),
      )
    }
    for (const run of runs) {
      expect({ args: run.args, code: run.code, stderr: run.stderr }).toEqual({ args: run.args, code: 0, stderr: '' })
      expect(run.stdout, run.args.join(' ')).toMatch(/usage/i)
    }
    expect(await readdir(root)).toEqual([])
  }, 120_000)

  it('an unknown command or option exits 2 naming it', async () => {
    const [command, option, adminOption, group] = await Promise.all([
      runGuard(['nosuch'], env),
      runGuard(['start', '--bogus'], env),
      runGuard(['identity', 'users', 'list', '--bogus'], env),
      runGuard(['identity', 'nosuch'], env),
    ])
    expect(command.code).toBe(2)
    expect(command.stderr).toContain("unknown command 'nosuch'")
    expect(option.code).toBe(2)
    expect(option.stderr).toContain("'--bogus'")
    expect(adminOption.code).toBe(2)
    expect(adminOption.stderr).toContain("'--bogus'")
    expect(group.code).toBe(2)
    expect(group.stderr).toContain("unknown command 'nosuch'")
    expect(await readdir(root)).toEqual([])
  }, 60_000)
})
