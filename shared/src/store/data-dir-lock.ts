import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'
import { GuardError } from '../errors.ts'

/**
 * One process owns a data directory. PGlite and chDB each assume they are alone on their files;
 * a second process opening them corrupts data or reads a stale copy. The owner keeps
 * `<dataDir>/guard.lock` with its pid; a second process reads it and stops before touching
 * anything else. A lock left by a process that died (SIGKILL, power loss) is stale and taken over.
 */
export const LOCK_FILE = 'guard.lock'

export interface LockOwner {
  pid: number
  hostname: string
  command: string
  startedAt: string
  /** Linux: the owner's start time in clock ticks since boot, so a reused pid is not mistaken for it. */
  processStart?: string
}

export class DataDirLockedError extends GuardError {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      'CONFLICT',
      `the data directory ${dataDir} is in use by another Guard process (pid ${owner.pid}, \`${owner.command}\`, ` +
        `started ${owner.startedAt} on ${owner.hostname}). Stop it first, or reach it through its admin API ` +
        '(`guard identity …` does this when it answers).',
    )
  }
}

interface Held {
  path: string
  holders: number
}

/** Locks this process holds, by data directory; stores opened twice in one process share one lock. */
const held = new Map<string, Held>()
let exitHookInstalled = false

function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Field 22 (starttime); fields after the parenthesised command name, which may contain spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

function isAlive(owner: LockOwner): boolean {
  // Another machine's pid (a shared network directory) cannot be checked: assume it is alive.
  if (owner.hostname !== hostname()) return true
  try {
    process.kill(owner.pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  if (owner.processStart === undefined) return true
  const current = processStart(owner.pid)
  return current === undefined || current === owner.processStart
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>
    return typeof parsed.pid === 'number' ? (parsed as LockOwner) : undefined
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    // Half-written by an owner that died while writing it: stale.
    return undefined
  }
}

/** The process holding `dataDir`, when one does (and is alive). */
export function dataDirOwner(dataDir: string): LockOwner | undefined {
  const owner = readOwner(join(resolve(dataDir), LOCK_FILE))
  return owner && (owner.pid === process.pid || isAlive(owner)) ? owner : undefined
}

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  // Synchronous: the 'exit' event allows nothing else. SIGKILL skips it; staleness covers that.
  process.on('exit', () => {
    for (const lock of held.values()) rmSync(lock.path, { force: true })
    held.clear()
  })
}

export interface DataDirLock {
  release(): void
}

/**
 * Takes the data directory for this process, or throws DataDirLockedError naming its owner. A
 * second lock in the same process shares the first; the file goes when the last one is released.
 */
export function lockDataDir(dataDir: string, command = process.argv.slice(2).join(' ') || 'node'): DataDirLock {
  const directory = resolve(dataDir)
  const path = join(directory, LOCK_FILE)
  let lock = held.get(directory)
  if (!lock) {
    const owner = readOwner(path)
    if (owner && owner.pid !== process.pid && isAlive(owner)) throw new DataDirLockedError(directory, owner)
    mkdirSync(directory, { recursive: true })
    if (owner) rmSync(path, { force: true })
    const mine: LockOwner = {
      pid: process.pid,
      hostname: hostname(),
      command: `guard ${command}`.trim(),
      startedAt: new Date().toISOString(),
      ...(processStart(process.pid) ? { processStart: processStart(process.pid) } : {}),
    }
    let fd: number
    try {
      // O_EXCL: of two processes racing past the check above, exactly one creates the file.
      fd = openSync(path, 'wx', 0o644)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      throw new DataDirLockedError(directory, readOwner(path) ?? { ...mine, pid: -1, command: 'unknown' })
    }
    try {
      writeSync(fd, `${JSON.stringify(mine)}\n`)
    } finally {
      closeSync(fd)
    }
    lock = { path, holders: 0 }
    held.set(directory, lock)
    installExitHook()
  }
  lock.holders++
  const taken = lock
  let released = false
  return {
    release() {
      if (released) return
      released = true
      taken.holders--
      if (taken.holders > 0) return
      held.delete(directory)
      rmSync(taken.path, { force: true })
    },
  }
}
