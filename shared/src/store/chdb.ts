import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { ChdbConnection } from 'chdb/connection'

/**
 * chDB binds one data directory per process and refuses a second while the first is open.
 * Sessions on that directory coexist, and each keeps its own current database and settings,
 * so every time-series store gets a session of its own on the one bound directory.
 */
export interface ChdbSession {
  readonly connection: ChdbConnection
  /** Closes the session; the last one closed frees the process to bind another directory. */
  release(): Promise<void>
}

interface Slot {
  path: string
  sessions: number
  /** A directory made for tests, removed once the last session on it closes. */
  temporary?: string
}

let bound: Slot | undefined
/** Set while the last session's native work drains; a new bind waits for it. */
let draining: Promise<void> | undefined

/** Test processes are killed rather than exited, so an exit hook would leave a temporary directory behind. */
function newSlot(path: string | undefined): Slot {
  if (path) return { path, sessions: 0 }
  const temporary = mkdtempSync(join(tmpdir(), 'guard-chdb-test-'))
  return { path: join(temporary, 'chdb'), sessions: 0, temporary }
}

/**
 * Opens a session on `path`, or, without a path (tests), on whichever directory the process
 * already has bound, else on a temporary one.
 */
export async function openChdbSession(path?: string): Promise<ChdbSession> {
  // Loaded here, not at the top, so a process configured for a ClickHouse server never loads chDB.
  const [{ createChdbConnection }, { drainPending }] = await Promise.all([import('chdb/connection'), import('chdb')])
  await draining
  const wanted = path ? resolve(path) : bound?.path
  if (bound && wanted !== bound.path) {
    throw new Error(
      `chDB is already open on ${bound.path} in this process and cannot also open ${wanted}: ` +
        'chDB allows one data directory per process (close every store on the first one, or use the same dataDir)',
    )
  }
  const slot = bound ?? newSlot(wanted)
  let connection: ChdbConnection
  try {
    mkdirSync(slot.path, { recursive: true })
    connection = createChdbConnection({ path: slot.path })
  } catch (error) {
    if (slot.sessions === 0 && slot.temporary) rmSync(slot.temporary, { recursive: true, force: true })
    throw error
  }
  bound = slot
  slot.sessions++
  let released = false
  return {
    connection,
    async release() {
      if (released) return
      released = true
      await connection.close()
      slot.sessions--
      if (slot.sessions > 0) return
      // close() can return before the engine lets go of the directory; drainPending waits for that.
      draining = drainPending().finally(() => {
        if (bound === slot && slot.sessions === 0) {
          bound = undefined
          if (slot.temporary) rmSync(slot.temporary, { recursive: true, force: true })
        }
        draining = undefined
      })
      await draining
    },
  }
}
