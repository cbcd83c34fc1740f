import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lockDataDir } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { guard } from '../bin/dispatch.ts'
import { runGuard } from './support/spawn-guard.ts'

/** Every command, action and admin group, each asked for its help. */
const HELP = [
  ['start'],
  ['identity'],
  ['collector'],
  ['probe'],
  ['agent'],
  ['agent', 'enroll'],
  ['agent', 'install'],
  ['monitor'],
  ['monitor', 'test'],
  ['dead-letters'],
  ['dead-letters', 'list'],
  ['dead-letters', 'replay'],
  ['dead-letters', 'drop'],
  ['bench'],
  ['backup'],
  ['restore'],
  ['import'],
  ['help'],
  ['identity', 'users'],
  ['identity', 'users', 'create'],
  ['identity', 'orgs'],
  ['identity', 'orgs', 'add-member'],
  ['identity', 'clients'],
  ['identity', 'keys'],
  ['identity', 'audit'],
  ['identity', 'catalog'],
  ['identity', 'changelog'],
  ['identity', 'changelog', 'add'],
]

/** A wrong word in every command and action, the word the error must name, and the suggestion if near. */
const BAD: Array<[args: string[], named: string, suggested?: string]> = [
  [['mointor'], 'mointor', 'monitor'],
  [['start', '--bogus'], '--bogus'],
  [['collector', '--bogus'], '--bogus'],
  [['probe', '--locaton', 'fra'], '--locaton', '--location'],
  [['probe', '--location'], '--location'],
  [['agent', '--bogus'], '--bogus'],
  [['agent', 'enrol'], 'enrol', 'enroll'],
  [['agent', 'enroll', '--colector', 'http://x'], '--colector', '--collector'],
  [['agent', 'enroll', '--key', 'k'], '--collector'],
  [['agent', 'install', '--bogus'], '--bogus'],
  [['monitor', 'tset'], 'tset', 'test'],
  [['monitor', 'test', '--bogus'], '--bogus'],
  [['monitor', 'test', '--url', 'http://x'], '--location'],
  [['backup', '--tp', '/tmp/x'], '--tp', '--to'],
  [['restore', '--form', '/tmp/x'], '--form', '--from'],
  [['dead-letters', 'lst'], 'lst', 'list'],
  [['dead-letters', 'list', '--limt', '5'], '--limt', '--limit'],
  [['dead-letters', 'replay', '--bogus'], '--bogus'],
  [['dead-letters', 'drop'], 'id'],
  [['bench', '--bogus'], '--bogus'],
  [['import', 'uptime-kum', 'kuma.db'], 'uptime-kum', 'uptime-kuma'],
  [['import', 'uptime-kuma', 'kuma.db', '--bogus'], '--bogus'],
  [['help', 'mointor'], 'mointor', 'monitor'],
  [['identity', 'usrs'], 'usrs', 'users'],
  [['identity', 'users', 'lsit'], 'lsit', 'list'],
  [['identity', 'users', 'list', '--bogus'], '--bogus'],
  [['identity', 'users', 'create', '--email', 'a@b.c'], '--password'],
  [['identity', 'orgs', 'set-plan', 'acme'], 'PLAN'],
  [['identity', 'orgs', 'get', 'acme', 'extra'], 'extra'],
  [['identity', 'clients', 'delet'], 'delet', 'delete'],
  [['identity', 'keys', 'rotat'], 'rotat', 'rotate'],
  [['identity', 'audit', '--limmit', '3'], '--limmit', '--limit'],
  [['identity', 'catalog', 'import'], 'FILE.json'],
  [['identity', 'changelog', 'add', '--bogus'], '--bogus'],
]

/** Runs `guard <args>` in this process, as bin/cli.ts does, and keeps what it printed. */
async function inProcess(args: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await guard(args, {
    stdout: (text) => {
      stdout += text
    },
    stderr: (text) => {
      stderr += text
    },
  })
  return { args, code, stdout, stderr }
}

/** An address where nothing listens: a port the system just gave out and took back. */
async function closedUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}

describe('guard command line', () => {
  const saved = { ...process.env }
  let root: string

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'guard-cli-'))
    // Any store opened would create files here; ports where nothing can listen start nothing either.
    Object.assign(process.env, {
      GUARD_DATA_DIR: join(root, 'data'),
      GUARD_IDENTITY_PORT: '1',
      GUARD_COLLECTOR_PORT: '1',
      LOG_LEVEL: 'silent',
    })
  })
  afterAll(async () => {
    process.env = saved
    await rm(root, { recursive: true, force: true })
  })

  it('`--help` on every command and action prints its usage and exits 0 without opening a store', async () => {
    const runs = await Promise.all([
      ...HELP.map((args) => inProcess([...args, '--help'])),
      inProcess(['help', 'monitor']),
      inProcess([]),
    ])
    for (const run of runs) {
      expect({ args: run.args, code: run.code, stderr: run.stderr }).toEqual({ args: run.args, code: 0, stderr: '' })
      expect(run.stdout, run.args.join(' ')).toMatch(/usage/i)
    }
    // An action's help is its own: enroll's names enroll's options, not the agent's.
    expect(runs[HELP.findIndex((args) => args.join() === 'agent,enroll')]?.stdout).toMatch(/^Usage: guard agent enroll/)
    expect(await readdir(root)).toEqual([])
  }, 60_000)

  it('a wrong command, action or option exits 2 naming it, with the near miss it meant', async () => {
    const runs = await Promise.all(BAD.map(([args]) => inProcess(args)))
    BAD.forEach(([args, named, suggested], i) => {
      const run = runs[i]
      expect({ args, code: run?.code, stdout: run?.stdout }).toEqual({ args, code: 2, stdout: '' })
      expect(run?.stderr, args.join(' ')).toContain(named)
      if (suggested) expect(run?.stderr, args.join(' ')).toContain(`did you mean '${suggested}'?`)
      expect(run?.stderr, args.join(' ')).toMatch(/Run 'guard [\w -]*--help' for usage\.\n$/)
      expect(run?.stderr).not.toMatch(/\n\s+at /)
    })
    expect(await readdir(root)).toEqual([])
  }, 60_000)

  it('Guard not running: one line naming where the CLI looked, exit 69', async () => {
    const [recorded, elsewhere] = await Promise.all([closedUrl(), closedUrl()])
    // `guard start` records the collector's address; the CLI finds it there without GUARD_COLLECTOR_URL.
    const dataDir = await mkdtemp(join(tmpdir(), 'guard-cli-recorded-'))
    await writeFile(
      join(dataDir, 'credentials.json'),
      JSON.stringify({ collectorUrl: recorded, apiKey: 'guard_key', adminToken: 'guard_admin' }),
    )
    process.env.GUARD_DATA_DIR = dataDir
    const viaCredentials = await Promise.all([
      inProcess(['monitor', 'test', '--location', 'local', '--url', 'https://example.com']),
      inProcess(['dead-letters', 'list']),
      inProcess(['dead-letters', 'replay', 'dl_1']),
      inProcess(['dead-letters', 'drop', 'dl_1']),
    ])
    process.env.GUARD_COLLECTOR_URL = elsewhere
    const viaEnv = await Promise.all([
      inProcess(['dead-letters', 'list']),
      inProcess([
        'agent',
        'enroll',
        '--collector',
        elsewhere,
        '--key',
        'k',
        '--name',
        'n',
        '--config',
        join(dataDir, 'a.json'),
      ]),
    ])
    // Identity's admin commands open the store when no identity answers, unless a process holds it.
    process.env.GUARD_IDENTITY_URL = elsewhere
    const lock = lockDataDir(dataDir)
    viaEnv.push(await inProcess(['identity', 'users', 'list']))
    lock.release()
    delete process.env.GUARD_COLLECTOR_URL
    delete process.env.GUARD_IDENTITY_URL
    for (const [runs, url] of [
      [viaCredentials, recorded],
      [viaEnv, elsewhere],
    ] as const) {
      for (const run of runs) {
        expect({ args: run.args, code: run.code, stdout: run.stdout }).toEqual({ args: run.args, code: 69, stdout: '' })
        expect(run.stderr.trimEnd().split('\n'), run.args.join(' ')).toHaveLength(1)
        expect(run.stderr, run.args.join(' ')).toContain(url)
        expect(run.stderr, run.args.join(' ')).toMatch(/is not answering \(ECONNREFUSED\)|is held by pid/)
      }
    }
    expect(await readdir(dataDir)).toEqual(['credentials.json'])
    await rm(dataDir, { recursive: true })
  })

  it('the real binary, the bundled agent included, answers the same way', async () => {
    const url = await closedUrl()
    const env = { GUARD_DATA_DIR: join(root, 'data') }
    const [enrollHelp, agentBogus, unknown, down, debug] = await Promise.all([
      runGuard(['agent', 'enroll', '--help'], env),
      runGuard(['agent', '--bogus'], env),
      runGuard(['nosuch'], env),
      runGuard(['monitor', 'test', '-l', 'local', '--url', 'https://example.com'], {
        ...env,
        GUARD_COLLECTOR_URL: url,
        GUARD_API_KEY: 'guard_key',
      }),
      runGuard(['dead-letters', 'list', '--debug'], {
        ...env,
        GUARD_COLLECTOR_URL: url,
        GUARD_ADMIN_TOKEN: 'guard_admin',
      }),
    ])
    expect(enrollHelp).toMatchObject({ code: 0, stderr: '' })
    expect(enrollHelp.stdout).toMatch(/^Usage: guard agent enroll --collector URL/)
    expect(agentBogus).toMatchObject({ code: 2, stdout: '' })
    expect(agentBogus.stderr).toBe("guard agent: unknown option '--bogus'\nRun 'guard agent --help' for usage.\n")
    expect(unknown).toMatchObject({ code: 2, stdout: '' })
    expect(unknown.stderr).toContain("guard: unknown command 'nosuch'")
    expect(down).toMatchObject({ code: 69, stdout: '' })
    expect(down.stderr).toBe(
      `guard monitor: the collector at ${url} is not answering (ECONNREFUSED); start Guard, or set GUARD_COLLECTOR_URL to where it runs\n`,
    )
    // --debug adds the stack trace and keeps the exit status.
    expect(debug.code).toBe(69)
    expect(debug.stderr).toMatch(/\n\s+at /)
    expect(await readdir(root)).toEqual([])
  }, 60_000)
})
