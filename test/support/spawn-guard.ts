import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const GUARD_BIN = fileURLToPath(new URL('../../bin/guard.mjs', import.meta.url))

export interface GuardProcess {
  child: ChildProcess
  output(): string
  /** Resolves with the first match of `pattern` in stdout, or rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
  /** Sends the signal and waits for the exit (SIGKILL after the timeout). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>
}

const COLLECTOR_MIGRATIONS = fileURLToPath(new URL('../../collector/migrations/postgres', import.meta.url))

/** Identity's and the collector's schemas on an empty cluster, dumped once per test worker. */
let migratedCluster: Promise<Blob> | undefined

async function dumpMigratedCluster(): Promise<Blob> {
  const { migrateIdentity } = await import('@guard/identity')
  const { migrate } = await import('@guard/shared')
  const { openTestRelationalStore } = await import('@guard/shared/testing')
  const sql = await openTestRelationalStore()
  try {
    await migrateIdentity(sql)
    await migrate(sql, { service: 'collector', directory: COLLECTOR_MIGRATIONS })
    return await sql.dumpDataDir!('none')
  } finally {
    await sql.close()
  }
}

/**
 * Makes `dataDir` that of a first `guard start` whose PGlite is initialised and migrated already:
 * on files, initdb and some 40 migrations took about half the CPU of a start (a profile of
 * `guard start`), in every file that starts one. Guard then finds its schema current and
 * bootstraps (admin, API key) as on an empty directory. Not for tests of the first start itself.
 */
export async function seedDataDir(dataDir: string): Promise<void> {
  migratedCluster ??= dumpMigratedCluster()
  const cluster = join(dataDir, 'pglite')
  await mkdir(cluster, { recursive: true, mode: 0o700 })
  const { PGlite } = await import('@electric-sql/pglite')
  const db = await PGlite.create(cluster, { loadDataDir: await migratedCluster })
  await db.close()
}

/**
 * Every Guard a test started and has not seen exit. A test worker runs file after file
 * (isolate: false): a Guard a failed file never stopped would keep checking, and taking CPU from
 * the files after it, until the run ends; the worker's exit ends them.
 */
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

function spawnTracked(args: string[], env: Record<string, string>, bin: string): ChildProcess {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  child.once('exit', () => running.delete(child))
  return child
}

/** Runs `guard <args>` as its own process, the way an operator would; `bin` runs another checkout's Guard. */
export function spawnGuard(args: string[], env: Record<string, string>, bin = GUARD_BIN): GuardProcess {
  const child = spawnTracked(args, env, bin)
  let stdout = ''
  let stderr = ''
  const listeners = new Set<() => void>()
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    for (const listener of listeners) listener()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

  return {
    child,
    output: () => `${stdout}\n--- stderr ---\n${stderr}`,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern)
          if (!match) return
          cleanup()
          resolve(match)
        }
        const timer = setTimeout(() => {
          cleanup()
          reject(new Error(`timed out waiting for ${pattern}\n${stdout}\n--- stderr ---\n${stderr}`))
        }, timeoutMs)
        const onExit = () => {
          cleanup()
          reject(new Error(`guard ${args.join(' ')} exited before ${pattern}\n${stdout}\n--- stderr ---\n${stderr}`))
        }
        const cleanup = () => {
          clearTimeout(timer)
          listeners.delete(check)
          child.off('exit', onExit)
        }
        listeners.add(check)
        child.once('exit', onExit)
        check()
      })
    },
    async stop(signal = 'SIGTERM', timeoutMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
      child.kill(signal)
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
      const code = await exited
      clearTimeout(timer)
      return code
    },
  }
}

export interface GuardRun {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `guard <args>` to its end (killed after `timeoutMs`), as an operator's shell would. */
export async function runGuard(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  bin = GUARD_BIN,
): Promise<GuardRun> {
  const child = spawnTracked(args, env, bin)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)))
  clearTimeout(timer)
  return { code, stdout, stderr }
}
