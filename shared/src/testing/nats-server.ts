import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
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
  /** SIGKILL, keeping the store: a node lost without a goodbye; `start` brings it back. */
  kill(): Promise<void>
  /** Starts the server again on the same port and store after `stopKeepingData`. */
  start(): Promise<void>
  /** `stopKeepingData` then `start`. */
  restart(): Promise<void>
}

export interface NatsServerOptions {
  /** Server name, shown as a stream's leader (default: nats-server's generated id). */
  name?: string
  /** Without JetStream: a leaf node that leaves JetStream to its hub. */
  jetstream?: boolean
  /** Extra command-line arguments (cluster routes and the like). */
  args?: string[]
  /** nats-server configuration text, for what has no command-line flag (leaf nodes). */
  config?: string
}

/** A JetStream-enabled nats-server on 127.0.0.1, or undefined when the binary is missing (skip). */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsTestServer | undefined> {
  const binary = serviceAvailable('nats-server', candidates)
  if (!binary) return undefined
  const port = await freePort()
  const storeDir = await mkdtemp(join(tmpdir(), 'guard-nats-'))
  const args = ['-a', '127.0.0.1', '-p', String(port), ...(options.args ?? [])]
  if (options.jetstream ?? true) args.push('-js', '-sd', storeDir)
  if (options.name) args.push('-n', options.name)
  if (options.config) {
    const configFile = join(storeDir, 'nats-server.conf')
    await writeFile(configFile, options.config)
    args.push('-c', configFile)
  }
  let child: ChildProcess | undefined

  const start = async () => {
    if (child) return
    child = await launch(binary, port, args)
  }
  const stopWith = (signal: NodeJS.Signals) => async () => {
    const running = child
    child = undefined
    if (running) await terminate(running, signal)
  }
  const stopKeepingData = stopWith('SIGTERM')
  await start()
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    start,
    stopKeepingData,
    kill: stopWith('SIGKILL'),
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

export interface NatsTestCluster {
  nodes: Array<NatsTestServer & { name: string }>
  /** Every node's client URL, comma-separated, as NATS_URL takes them. */
  urls: string
  stop(): Promise<void>
}

/** `size` JetStream nodes routed to each other on 127.0.0.1 (cluster `guard`, nodes `n1`…), each with its own store. */
export async function startNatsCluster(size = 3): Promise<NatsTestCluster | undefined> {
  if (!serviceAvailable('nats-server', candidates)) return undefined
  const routePorts = await Promise.all(Array.from({ length: size }, () => freePort()))
  const routes = routePorts.map((routePort) => `nats://127.0.0.1:${routePort}`).join(',')
  // Started together: a JetStream node waits for its peers' routes before it answers.
  const nodes = await Promise.all(
    routePorts.map(async (routePort, index) => {
      const name = `n${index + 1}`
      const clusterArgs = ['--cluster_name', 'guard', '--cluster', `nats://127.0.0.1:${routePort}`, '--routes', routes]
      const node = await startNatsServer({ name, args: clusterArgs })
      return { ...node!, name }
    }),
  )
  return {
    nodes,
    urls: nodes.map((node) => node.url).join(','),
    stop: async () => {
      await Promise.all(nodes.map((node) => node.stop()))
    },
  }
}

export interface NatsTestHub {
  hub: NatsTestServer
  /** A nats-server without JetStream whose only link is its leaf connection to the hub. */
  leaf: NatsTestServer
  stop(): Promise<void>
}

/** The hub's JetStream domain: what clients of a leaf node name to reach the hub's streams. */
export const NATS_HUB_DOMAIN = 'hub'

/** A JetStream hub accepting leaf nodes, and one leaf node connected to it, as a region would run. */
export async function startNatsHubAndLeaf(): Promise<NatsTestHub | undefined> {
  if (!serviceAvailable('nats-server', candidates)) return undefined
  const leafPort = await freePort()
  const hub = await startNatsServer({
    name: 'hub',
    config: `jetstream { domain: ${NATS_HUB_DOMAIN} }\nleafnodes { listen: "127.0.0.1:${leafPort}" }\n`,
  })
  const leaf = await startNatsServer({
    name: 'leaf',
    jetstream: false,
    config: `leafnodes { remotes: [ { url: "nats-leaf://127.0.0.1:${leafPort}" } ] }\n`,
  })
  return {
    hub: hub!,
    leaf: leaf!,
    stop: async () => {
      await leaf!.stop()
      await hub!.stop()
    },
  }
}

async function launch(binary: string, port: number, args: string[]): Promise<ChildProcess> {
  const child = spawn(binary, args, {
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

async function terminate(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill(signal)
  const timer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs)
  await exited
  clearTimeout(timer)
}
