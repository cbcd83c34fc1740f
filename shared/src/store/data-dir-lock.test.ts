import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { DataDirLockedError, dataDirOwner, LOCK_FILE, lockDataDir } from './data-dir-lock.ts'

const LOCK_MODULE = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url))

/** Another process that takes the lock, says so, and holds it until killed. */
async function holder(dataDir: string): Promise<ChildProcess> {
  const script = `import { lockDataDir } from ${JSON.stringify(LOCK_MODULE)}
lockDataDir(${JSON.stringify(dataDir)}, 'test holder'); console.log('locked'); setInterval(() => {}, 1000)`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer]
  expect(chunk.toString()).toContain('locked')
  return child
}

/**
 * A process that, for each `{dir, at}` line on stdin, waits until the instant `at` (so all contenders
 * start together), tries to take `dir`, prints the outcome, and keeps what it took until it exits.
 */
async function contender(): Promise<{ child: ChildProcess; attempt(dir: string, at: number): Promise<string> }> {
  const script = `import { lockDataDir } from ${JSON.stringify(LOCK_MODULE)}
import { createInterface } from 'node:readline'
console.log('ready')
for await (const line of createInterface({ input: process.stdin })) {
  const { dir, at } = JSON.parse(line)
  while (performance.timeOrigin + performance.now() < at) {}
  let outcome = 'won'
  try { lockDataDir(dir, 'contender') } catch (error) { outcome = error.name === 'GuardError' && error.code === 'CONFLICT' ? 'refused' : String(error) }
  console.log(outcome)
}`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  expect((await lines.next()).value).toBe('ready')
  return {
    child,
    async attempt(dir, at) {
      child.stdin!.write(`${JSON.stringify({ dir, at })}\n`)
      return (await lines.next()).value as string
    },
  }
}

describe('data directory lock', () => {
  const dirs: string[] = []
  const children: ChildProcess[] = []
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guard-lock-'))
    dirs.push(dir)
    return dir
  }
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL')
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
  })

  it('refuses a second process, naming the running one, and creates nothing', async () => {
    const dataDir = await tempDir()
    const child = await holder(dataDir)
    children.push(child)
    const before = await readdir(dataDir)
    let refused: unknown
    try {
      lockDataDir(dataDir)
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(DataDirLockedError)
    expect((refused as Error).message).toContain(`pid ${child.pid}`)
    expect((refused as Error).message).toContain('test holder')
    expect(await readdir(dataDir)).toEqual(before)
    expect(dataDirOwner(dataDir)?.pid).toBe(child.pid)
  })

  it('takes over the lock of a process that was killed', async () => {
    const dataDir = await tempDir()
    const child = await holder(dataDir)
    child.kill('SIGKILL')
    await once(child, 'exit')
    expect(dataDirOwner(dataDir)).toBeUndefined()
    const lock = lockDataDir(dataDir)
    expect(JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(process.pid)
    lock.release()
    expect(await readdir(dataDir)).toEqual([])
  })

  it('creates the data directory 0700 and its lock 0600, whatever the umask', async () => {
    const dataDir = join(await tempDir(), 'data')
    const umask = process.umask(0o022)
    let lock: ReturnType<typeof lockDataDir>
    try {
      lock = lockDataDir(dataDir)
    } finally {
      process.umask(umask)
    }
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700)
    expect((await stat(join(dataDir, LOCK_FILE))).mode & 0o777).toBe(0o600)
    lock.release()
  })

  it('is shared within one process and removed when the last holder releases it', async () => {
    const dataDir = await tempDir()
    const first = lockDataDir(dataDir)
    const second = lockDataDir(dataDir)
    first.release()
    expect(await readdir(dataDir)).toEqual([LOCK_FILE])
    second.release()
    expect(await readdir(dataDir)).toEqual([])
  })

  it('hands a stale lock to exactly one of several processes taking it over at once, in every trial', async () => {
    const dead = spawn(process.execPath, ['-e', ''])
    await once(dead, 'exit')
    // A lock left by a process that is gone: its pid is free, and its start time matches nothing.
    const stale = {
      pid: dead.pid,
      hostname: hostname(),
      command: 'guard dead',
      startedAt: '2020-01-01T00:00:00.000Z',
      processStart: '1',
    }
    const contenders = await Promise.all([contender(), contender(), contender()])
    children.push(...contenders.map(({ child }) => child))
    const trials: Array<{ outcomes: string[]; holder: number }> = []
    for (let trial = 0; trial < 40; trial++) {
      const dataDir = await tempDir()
      await writeFile(join(dataDir, LOCK_FILE), `${JSON.stringify(stale)}\n`)
      const at = Date.now() + 50
      const outcomes = await Promise.all(contenders.map(({ attempt }) => attempt(dataDir, at)))
      trials.push({ outcomes, holder: JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8')).pid })
    }
    for (const { outcomes, holder } of trials) {
      expect(outcomes.filter((outcome) => outcome === 'won')).toHaveLength(1)
      expect(outcomes.filter((outcome) => outcome === 'refused')).toHaveLength(contenders.length - 1)
      expect(holder).toBe(contenders[outcomes.indexOf('won')]!.child.pid)
    }
  }, 60_000)
})
