import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, serviceAvailable } from './services.ts'

const candidates = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']
const readyTimeoutMs = 10_000
const stopGraceMs = 5_000

export interface NatsTestServer {
  url: string
  port: number
  /** JetStream store; survives `stopKeepingData` and `restart`, removed by `stop`. */
  storeDir: string
  /** Kills the server for good and removes its store. */
  stop(): Promise<void>
  /** Kills the server but keeps its store, to simulate an outage; `start` brings it back. */
  stopKeepingData(): Promise<void>
  /** Starts the server again on the same port and store after `stopKeepingData`. */
  start(): Promise<void>
  /** `stopKeepingData` then `start`. */
  restart(): Promise<void>
}

/** A JetStream-enabled nats-server on 127.0.0.1, or undefined when the binary is missing (skip). */
export async function startNatsServer(): Promise<NatsTestServer | undefined> {
  const binary = serviceAvailable('nats-server', candidates)
  if (!binary) return undefined
  const port = await freePort()
  const storeDir = await mkdtemp(join(tmpdir(), 'guard-nats-'))
  let child: ChildProcess | undefined

  const start = async () => {
    if (child) return
    child = await launch(binary, port, storeDir)
  }
  const stopKeepingData = async () => {
    const running = child
    child = undefined
    if (running) await terminate(running)
  }
  await start()
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    start,
    stopKeepingData,
    restart: async () => {
      await stopKeepingData()
      await start()
    },
    stop: async () => {
      await stopKeepingData()
      await rm(storeDir, { recursive: true, force: true })
    },
  }
}

async function launch(binary: string, port: number, storeDir: string): Promise<ChildProcess> {
  const child = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  // Keep the tail of the log so a failed start explains itself.
  let log = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000)
  })
  // A test runner that dies must not leave servers behind.
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  child.once('exit', () => process.off('exit', killOnExit))

  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) =>
      reject(new Error(`nats-server exited during start (code ${code}, signal ${signal}):\n${log}`)),
    )
  })
  exited.catch(() => {})
  try {
    await Promise.race([waitForPort(port, readyTimeoutMs), exited])
  } catch (error) {
    await terminate(child)
    throw error
  }
  return child
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await accepts(port)) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`nats-server did not accept connections on port ${port} within ${timeoutMs} ms`)
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs)
  await exited
  clearTimeout(timer)
}
