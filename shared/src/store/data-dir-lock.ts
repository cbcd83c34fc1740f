import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'
import { GuardError } from '../errors.ts'

/**
 * One process owns a data directory. PGlite and chDB each assume they are alone on their files;
 * a second process opening them corrupts data or reads a stale copy. The owner keeps
 * `<dataDir>/guard.lock` with its pid; a second process reads it and stops before touching
 * anything else. A lock left by a process that died (SIGKILL, power loss) is stale and taken
 * over by exactly one of the processes that find it (see `takeOver`).
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

/** What a lock file holds: its owner, nothing (no file), or something that is not a lock. */
function readLock(path: string): LockOwner | 'absent' | 'unreadable' {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent'
    throw error
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>
    return typeof parsed.pid === 'number' ? (parsed as LockOwner) : 'unreadable'
  } catch {
    return 'unreadable'
  }
}

function readOwner(path: string): LockOwner | undefined {
  const lock = readLock(path)
  return typeof lock === 'object' ? lock : undefined
}

/** Names one owner for good: a pid is reused, a pid with its start time is not. */
const ownerId = (lock: LockOwner | 'unreadable') =>
  lock === 'unreadable' ? 'unreadable' : `${lock.pid}-${lock.processStart ?? Date.parse(lock.startedAt)}`

/** Creates `path` as a second name of the complete file `source`, unless `path` exists: atomic, never half-written. */
function linkIfAbsent(source: string, path: string): boolean {
  try {
    linkSync(source, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/** Claims above one another: a claimer that dies mid-take-over is taken over too, but not forever. */
const MAX_CLAIM_DEPTH = 3

/**
 * The sole right to replace the file of one dead owner: a claim file named after that owner,
 * linked into place whole, so of processes racing for it exactly one gets it. A claim whose own
 * claimer died is claimed in turn, under the claimer's name. Gives the claims to remove once
 * done, or the live process that holds the claim (it is taking the lock over).
 */
function claim(
  directory: string,
  dead: LockOwner | 'unreadable',
  mine: string,
  depth = 0,
): { claims: string[] } | { claimer: LockOwner } {
  const path = join(directory, `${LOCK_FILE}.takeover-${ownerId(dead)}`)
  if (linkIfAbsent(mine, path)) return { claims: [path] }
  const claimer = readLock(path)
  if (typeof claimer === 'object' && claimer.pid !== process.pid && isAlive(claimer)) return { claimer }
  if (depth >= MAX_CLAIM_DEPTH) {
    throw new GuardError('CONFLICT', `the data directory ${directory} holds stale take-over files; remove ${path}*`)
  }
  // Released between the link and the read: the lock is replaced already, or free to claim.
  if (claimer === 'absent') return claim(directory, dead, mine, depth + 1)
  const deeper = claim(directory, claimer, mine, depth + 1)
  return 'claims' in deeper ? { claims: [...deeper.claims, path] } : deeper
}

/**
 * Takes `path` for the owner written in `mine`: a link when no lock is there; over a dead owner's
 * lock, a claim on that owner, a re-read that the lock is still that owner's (nobody else may
 * replace it meanwhile), then an atomic rename. Throws DataDirLockedError naming a live owner.
 */
function takeOver(directory: string, path: string, mine: string): void {
  // Each round ends with the lock taken, refused, or seen to change hands; a few are plenty.
  for (let round = 0; round < 10; round++) {
    if (linkIfAbsent(mine, path)) return
    const found = readLock(path)
    if (found === 'absent') continue
    if (found !== 'unreadable' && found.pid !== process.pid && isAlive(found)) {
      throw new DataDirLockedError(directory, found)
    }
    const claimed = claim(directory, found, mine)
    if ('claimer' in claimed) throw new DataDirLockedError(directory, claimed.claimer)
    try {
      const still = readLock(path)
      if (still !== 'absent' && ownerId(still) === ownerId(found)) {
        renameSync(mine, path)
        return
      }
    } finally {
      for (const done of claimed.claims) rmSync(done, { force: true })
    }
  }
  throw new GuardError('CONFLICT', `the lock of the data directory ${directory} keeps changing hands; try again`)
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
    // Private from the start: credentials, sealed secrets and the stores' files live there.
    mkdirSync(directory, { recursive: true, mode: 0o700 })
    const mine: LockOwner = {
      pid: process.pid,
      hostname: hostname(),
      command: `guard ${command}`.trim(),
      startedAt: new Date().toISOString(),
      ...(processStart(process.pid) ? { processStart: processStart(process.pid) } : {}),
    }
    // Written whole under a name of its own first: a lock file is never seen half-written.
    const temporary = join(directory, `${LOCK_FILE}.${process.pid}.${randomBytes(6).toString('hex')}`)
    writeFileSync(temporary, `${JSON.stringify(mine)}\n`, { mode: 0o600, flag: 'wx' })
    try {
      takeOver(directory, path, temporary)
    } finally {
      // After a link it is a second name of the lock; after a rename, gone already.
      rmSync(temporary, { force: true })
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

/**
 * Opens a store with `open` while this process holds `dataDir`'s lock: the lock is released if
 * opening fails, otherwise when the store closes.
 */
export async function openHoldingDataDir<Store extends { close(): Promise<void> }>(
  dataDir: string,
  open: () => Promise<Store>,
): Promise<Store> {
  const lock = lockDataDir(dataDir)
  let store: Store
  try {
    store = await open()
  } catch (error) {
    lock.release()
    throw error
  }
  return {
    ...store,
    async close() {
      try {
        await store.close()
      } finally {
        lock.release()
      }
    },
  }
}
