import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { freePort, serviceAvailable } from './services.ts'

export interface PostgresServer {
  /** `postgres://guard@127.0.0.1:<port>/guard`, trust auth. */
  url: string
  /** The same database over the server's Unix socket in `socketDir`. */
  socketUrl: string
  stop(): Promise<void>
  /** Stops the server (fast shutdown) but keeps its data, to simulate an outage; `start` brings it back. */
  stopKeepingData(): Promise<void>
  /** Starts the server again on the same port and data after `stopKeepingData`. */
  start(): Promise<void>
  /** The 127.0.0.1 port it listens on. */
  port: number
  /** A standby only: ends recovery, so it accepts writes (what `pg_ctl promote` does). */
  promote(): Promise<void>
}

const run = promisify(execFile)
const START_ATTEMPTS = 3
const READY_POLLS = 150
const POLL_MS = 100
const STOP_WAIT_MS = 10_000

/** PostgreSQL 15 first, then any other installed major, newest first. */
function candidates(): string[] {
  const root = '/usr/lib/postgresql'
  let versions: string[] = []
  try {
    versions = readdirSync(root).sort((a, b) => Number(b) - Number(a))
  } catch {
    // No PostgreSQL packages at all: serviceAvailable reports the miss.
  }
  const found = versions.map((v) => join(root, v, 'bin', 'postgres'))
  const preferred = join(root, '15', 'bin', 'postgres')
  return [preferred, ...found.filter((path) => path !== preferred)]
}

/** The server binary startPostgres runs, or undefined (and a loud skip) when none is installed. */
export const postgresBinary = (): string | undefined => serviceAvailable('postgres', candidates())

/** PostgreSQL refuses to run as root; tests in CI do, so the server then runs as an unprivileged account. */
function serverAccount(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n')
  for (const name of ['postgres', 'nobody']) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(':')
    if (fields?.[2] && fields[3]) return { uid: Number(fields[2]), gid: Number(fields[3]) }
  }
  throw new Error('running as root and neither a postgres nor a nobody account exists to run PostgreSQL')
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

async function waitReady(child: ChildProcess, port: number, log: () => string, create: boolean): Promise<void> {
  for (let poll = 0; poll < READY_POLLS; poll++) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}: ${log()}`)
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'guard', database: 'postgres' })
    try {
      await client.connect()
      if (create) await client.query('CREATE DATABASE guard')
      return
    } catch {
      await delay(POLL_MS)
    } finally {
      await client.end().catch(() => undefined)
    }
  }
  throw new Error(`postgres not ready after ${(READY_POLLS * POLL_MS) / 1000}s: ${log()}`)
}

async function stopServer(child: ChildProcess): Promise<void> {
  // SIGINT is PostgreSQL's fast shutdown: abort sessions, checkpoint, exit.
  child.kill('SIGINT')
  const timedOut = await Promise.race([exited(child).then(() => false), delay(STOP_WAIT_MS).then(() => true)])
  if (timedOut) {
    child.kill('SIGKILL')
    await exited(child)
  }
}

/**
 * A test process killed outright (vitest ending a worker, a bench stopped with SIGKILL) runs no exit
 * hook, and its server would outlive it with its directory. A shell outside it waits for this process
 * to go, then stops the server (immediate shutdown) and removes the directory. It is ended with the server.
 */
function watchForOrphan(serverPid: number, root: string): ChildProcess {
  const script = [
    'while kill -0 "$1" 2>/dev/null; do sleep 1; done',
    'kill -QUIT "$2" 2>/dev/null',
    'for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$2" 2>/dev/null || break; sleep 1; done',
    'rm -rf "$3"',
  ].join('\n')
  const watchdog = spawn('/bin/sh', ['-c', script, 'guard-pg-watchdog', String(process.pid), String(serverPid), root], {
    detached: true,
    stdio: 'ignore',
  })
  watchdog.unref()
  return watchdog
}

/**
 * Starts a throwaway PostgreSQL on a free 127.0.0.1 port with a temporary data directory,
 * or returns undefined (tests skip) when no server binary is installed. With `standbyOf`, a
 * streaming replica of that server (pg_basebackup -R), read-only until `promote()`.
 */
export async function startPostgres(options: { standbyOf?: PostgresServer } = {}): Promise<PostgresServer | undefined> {
  const primary = options.standbyOf
  const postgres = postgresBinary()
  if (!postgres) return undefined
  const bin = join(postgres, '..')
  const account = serverAccount()
  const root = mkdtempSync(join(tmpdir(), 'guard-pg-'))
  const dataDir = join(root, 'data')
  const socketDir = join(root, 'socket')
  mkdirSync(socketDir)
  if (account) {
    chownSync(root, account.uid, account.gid)
    chownSync(socketDir, account.uid, account.gid)
  }
  const removeRoot = () => rmSync(root, { recursive: true, force: true })
  try {
    // initdb's pg_hba.conf trusts replication connections from 127.0.0.1, which pg_basebackup uses.
    const [command, args] = primary
      ? [
          'pg_basebackup',
          [
            '-h',
            '127.0.0.1',
            '-p',
            String(primary.port),
            '-U',
            'guard',
            '-D',
            dataDir,
            '-R',
            '-X',
            'stream',
            '--no-sync',
          ],
        ]
      : ['initdb', ['-D', dataDir, '-U', 'guard', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']]
    await run(join(bin, command), args, { ...account, cwd: root, env: { ...process.env, LC_ALL: 'C' } })
  } catch (error) {
    removeRoot()
    throw error
  }

  const launch = (port: number) => {
    const log = { text: '' }
    const child: ChildProcess = spawn(
      postgres,
      ['-D', dataDir, '-p', String(port), '-k', socketDir, '-h', '127.0.0.1'].concat(
        // Durability buys nothing for a database deleted after the test.
        ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      ),
      { ...account, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    child.stdout?.on('data', (chunk: Buffer) => {
      log.text += chunk.toString()
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      log.text += chunk.toString()
    })
    if (child.pid !== undefined) {
      const watchdog = watchForOrphan(child.pid, root)
      child.once('exit', () => watchdog.kill())
    }
    return { child, log }
  }

  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    let { child, log } = launch(port)
    // A script that calls process.exit() without stop() must not leave a server behind (a killed process still can).
    const onExit = () => {
      child.kill('SIGQUIT')
      removeRoot()
    }
    process.once('exit', onExit)
    try {
      await waitReady(child, port, () => log.text.slice(-2000), !primary)
    } catch (error) {
      await stopServer(child)
      process.off('exit', onExit)
      // Another process may have taken the port between freePort() and bind.
      if (attempt < START_ATTEMPTS && log.text.includes('could not bind')) continue
      removeRoot()
      throw error
    }
    return {
      port,
      url: `postgres://guard@127.0.0.1:${port}/guard`,
      socketUrl: `postgres://guard@localhost:${port}/guard?host=${encodeURIComponent(socketDir)}`,
      async stop() {
        process.off('exit', onExit)
        await stopServer(child)
        removeRoot()
      },
      stopKeepingData: () => stopServer(child),
      async start() {
        ;({ child, log } = launch(port))
        await waitReady(child, port, () => log.text.slice(-2000), false)
      },
      async promote() {
        const client = new pg.Client({ host: '127.0.0.1', port, user: 'guard', database: 'postgres' })
        await client.connect()
        try {
          // Waits (60 s at most) until the standby has left recovery and accepts writes.
          await client.query('SELECT pg_promote(true, 60)')
        } finally {
          await client.end()
        }
      },
    }
  }
}
