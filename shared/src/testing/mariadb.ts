import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort, serviceAvailable } from './services.ts'

export interface MariaDbServer {
  host: '127.0.0.1'
  port: number
  /** An account that must sign in with `password`, owner of `database`. */
  user: string
  password: string
  database: string
  stop(): Promise<void>
}

const run = promisify(execFile)
const READY_POLLS = 100
const POLL_MS = 100
const STOP_WAIT_MS = 10_000

/** Small InnoDB files: the bootstrap writes about 80 MB with the defaults. */
const SMALL_INNODB = [
  '--innodb-buffer-pool-size=8M',
  '--innodb-log-file-size=4M',
  '--innodb-data-file-path=ibdata1:4M:autoextend',
]

/** On disk the bootstrap waits about 8 s on synchronous writes; in memory it takes 2 s. */
const scratchDir = () => (existsSync('/dev/shm') ? '/dev/shm' : tmpdir())

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

/** The server binary startMariaDb runs, or undefined (and a loud skip) when none is installed. */
export const mariaDbBinary = (): string | undefined => serviceAvailable('mariadbd', ['/usr/sbin/mariadbd'])

/**
 * Starts a throwaway MariaDB on a free 127.0.0.1 port, with its data directory and socket in a
 * temporary directory and an account with a password, or returns undefined (tests skip) when the
 * server is not installed.
 */
export async function startMariaDb(): Promise<MariaDbServer | undefined> {
  const mariadbd = mariaDbBinary()
  if (!mariadbd) return undefined
  const root = mkdtempSync(join(scratchDir(), 'guard-mariadb-'))
  const dataDir = join(root, 'data')
  const socket = join(root, 'mariadb.sock')
  const removeRoot = () => rmSync(root, { recursive: true, force: true })
  // Root runs the server as itself (`--user`): the temporary directory is its own.
  const asUser = process.getuid?.() === 0 ? ['--user=root'] : []
  try {
    await run('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${dataDir}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      ...SMALL_INNODB,
      ...asUser,
    ])
  } catch (error) {
    removeRoot()
    throw error
  }
  const port = await freePort()
  let log = ''
  const child = spawn(
    mariadbd,
    [
      '--no-defaults',
      `--datadir=${dataDir}`,
      `--socket=${socket}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      '--skip-log-bin',
      '--innodb-flush-log-at-trx-commit=0',
      ...SMALL_INNODB,
      ...asUser,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  const onExit = () => {
    child.kill('SIGKILL')
    removeRoot()
  }
  process.once('exit', onExit)
  const stop = async () => {
    process.off('exit', onExit)
    child.kill('SIGTERM')
    const late = await Promise.race([exited(child).then(() => false), delay(STOP_WAIT_MS).then(() => true)])
    if (late) {
      child.kill('SIGKILL')
      await exited(child)
    }
    removeRoot()
  }
  const server = { host: '127.0.0.1', port, user: 'guard', password: 'guard-test-secret', database: 'guard' } as const
  const setup = [
    `CREATE DATABASE ${server.database}`,
    `CREATE USER '${server.user}'@'%' IDENTIFIED BY '${server.password}'`,
    `GRANT ALL ON ${server.database}.* TO '${server.user}'@'%'`,
  ].join('; ')
  for (let poll = 0; poll < READY_POLLS; poll++) {
    if (child.exitCode !== null) break
    try {
      await run('mariadb', ['--no-defaults', `--socket=${socket}`, '--user=root', '-e', setup])
      return { ...server, stop }
    } catch {
      await delay(POLL_MS)
    }
  }
  await stop()
  throw new Error(`mariadbd did not start: ${log.slice(-2000)}`)
}
