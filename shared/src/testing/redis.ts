import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, serviceAvailable } from './services.ts'

export interface RedisServer {
  host: '127.0.0.1'
  port: number
  /** The port speaking TLS, when started with a certificate. */
  tlsPort?: number
  /** What `AUTH` needs (`requirepass`, the `default` user's password). */
  password: string
  stop(): Promise<void>
}

export interface RedisOptions {
  /** PEM certificate and key: the server also listens with TLS on `tlsPort`. */
  tls?: { cert: string; key: string }
}

const READY_WAIT_MS = 10_000
const STOP_WAIT_MS = 5_000

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

/** The server binary startRedis runs, or undefined (and a loud skip) when none is installed. */
export const redisBinary = (): string | undefined =>
  serviceAvailable('redis-server', ['/usr/bin/redis-server', '/usr/local/bin/redis-server'])

/**
 * Starts a throwaway Redis on a free 127.0.0.1 port that requires a password and saves nothing,
 * or returns undefined (tests skip) when the server is not installed.
 */
export async function startRedis(options: RedisOptions = {}): Promise<RedisServer | undefined> {
  const binary = redisBinary()
  if (!binary) return undefined
  const root = mkdtempSync(join(tmpdir(), 'guard-redis-'))
  const port = await freePort()
  const password = 'guard-redis-secret'
  const tlsArgs: string[] = []
  let tlsPort: number | undefined
  if (options.tls) {
    tlsPort = await freePort()
    writeFileSync(join(root, 'cert.pem'), options.tls.cert)
    writeFileSync(join(root, 'key.pem'), options.tls.key)
    tlsArgs.push('--tls-port', String(tlsPort), '--tls-cert-file', join(root, 'cert.pem'))
    tlsArgs.push('--tls-key-file', join(root, 'key.pem'), '--tls-auth-clients', 'no')
  }
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--requirepass', password, '--save', '', '--appendonly', 'no']
      .concat(['--dir', root, '--unixsocket', join(root, 'redis.sock')])
      .concat(tlsArgs),
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let log = ''
  const ready = new Promise<boolean>((resolve) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString()
      if (log.includes('Ready to accept connections')) resolve(true)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', () => resolve(false))
    setTimeout(() => resolve(false), READY_WAIT_MS).unref()
  })
  const onExit = () => {
    child.kill('SIGKILL')
    rmSync(root, { recursive: true, force: true })
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
    rmSync(root, { recursive: true, force: true })
  }
  if (!(await ready)) {
    await stop()
    throw new Error(`redis-server did not start: ${log.slice(-2000)}`)
  }
  return { host: '127.0.0.1', port, ...(tlsPort ? { tlsPort } : {}), password, stop }
}
