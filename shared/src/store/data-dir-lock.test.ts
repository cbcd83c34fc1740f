import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

  it('is shared within one process and removed when the last holder releases it', async () => {
    const dataDir = await tempDir()
    const first = lockDataDir(dataDir)
    const second = lockDataDir(dataDir)
    first.release()
    expect(await readdir(dataDir)).toEqual([LOCK_FILE])
    second.release()
    expect(await readdir(dataDir)).toEqual([])
  })
})
