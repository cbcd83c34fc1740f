import { execFile } from 'node:child_process'
import { hostname, platform, uptime } from 'node:os'
import { promisify } from 'node:util'
import type { AgentHeartbeat } from '@guard/shared'
import { truncateText } from '@guard/shared'
import { realFilesystems } from './collect-metrics.ts'
import { si } from './system-information.ts'
import { AGENT_VERSION } from './version.ts'

const run = promisify(execFile)
const TOP_PROCESSES = 25
const cut = (value: string | undefined | null, max: number) => truncateText(value ?? '', max)

type Inventory = Pick<AgentHeartbeat, 'system' | 'processes' | 'applications' | 'connections'>

async function systemInfo(): Promise<NonNullable<AgentHeartbeat['system']>> {
  const [os, cpu, memory, filesystems] = await Promise.all([si.osInfo(), si.cpu(), si.mem(), realFilesystems()])
  return {
    hostname: cut(os.hostname || hostname(), 255),
    platform: cut(os.platform || platform(), 64),
    os: cut(`${os.distro} ${os.release}`.trim(), 255),
    architecture: cut(os.arch, 64),
    cpu_model: cut(`${cpu.manufacturer} ${cpu.brand}`.trim(), 255),
    cpu_cores: Math.max(1, cpu.cores),
    total_memory: memory.total,
    total_disk: Math.round(filesystems.reduce((sum, fs) => sum + fs.size, 0)),
    agent_version: AGENT_VERSION,
    uptime_seconds: Math.round(uptime()),
  }
}

type ProcessList = Awaited<ReturnType<typeof si.processes>>['list']

/** The busiest processes: the top by CPU and the top by memory, merged. */
function topProcesses(list: ProcessList): NonNullable<AgentHeartbeat['processes']> {
  const byCpu = [...list].sort((a, b) => b.cpu - a.cpu).slice(0, TOP_PROCESSES)
  const byMemory = [...list].sort((a, b) => b.memRss - a.memRss).slice(0, TOP_PROCESSES)
  const chosen = new Map([...byCpu, ...byMemory].map((process) => [process.pid, process]))
  return [...chosen.values()]
    .sort((a, b) => b.cpu - a.cpu || b.memRss - a.memRss)
    .map((process) => ({
      pid: process.pid,
      name: cut(process.name, 255),
      command: cut(`${process.command} ${process.params}`.trim(), 1024),
      cpu_percent: Math.max(0, Math.round(process.cpu * 100) / 100),
      memory_mb: Math.max(0, Math.round((process.memRss / 1024) * 10) / 10),
      status: cut(process.state, 32),
      user: cut(process.user, 64),
    }))
}

interface Package {
  name: string
  version: string
  publisher: string
  size: number
}

/** Installed packages from the system's package manager: dpkg, rpm or apk, whichever answers. */
async function installedPackages(): Promise<Package[]> {
  const options = { maxBuffer: 32 * 1024 * 1024, timeout: 30_000 }
  const attempts: Array<() => Promise<Package[]>> = [
    async () => {
      const { stdout } = await run(
        'dpkg-query',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own field placeholders
        ['-W', '-f=${Package}\\t${Version}\\t${Maintainer}\\t${Installed-Size}\\n'],
        options,
      )
      return stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [name = '', version = '', publisher = '', size = '0'] = line.split('\t')
          return { name, version, publisher, size: Number(size) * 1024 || 0 }
        })
    },
    async () => {
      const { stdout } = await run(
        'rpm',
        ['-qa', '--queryformat', '%{NAME}\\t%{VERSION}-%{RELEASE}\\t%{VENDOR}\\t%{SIZE}\\n'],
        options,
      )
      return stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [name = '', version = '', publisher = '', size = '0'] = line.split('\t')
          return { name, version, publisher: publisher === '(none)' ? '' : publisher, size: Number(size) || 0 }
        })
    },
    async () => {
      const { stdout } = await run('apk', ['info', '-v'], options)
      return stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const match = line.match(/^(.+)-([^-]+-r\d+)$/)
          return { name: match?.[1] ?? line, version: match?.[2] ?? '', publisher: '', size: 0 }
        })
    },
  ]
  if (platform() === 'linux') {
    for (const attempt of attempts) {
      try {
        const packages = await attempt()
        if (packages.length > 0) return packages
      } catch {
        // This package manager is not installed; try the next one.
      }
    }
    return []
  }
  // Elsewhere systeminformation knows the versions of well-known software only.
  const versions = await si.versions()
  return Object.entries(versions)
    .filter(([, version]) => typeof version === 'string' && version !== '')
    .map(([name, version]) => ({ name, version: String(version), publisher: '', size: 0 }))
}

async function applications(running: Set<string>): Promise<NonNullable<AgentHeartbeat['applications']>> {
  return (await installedPackages()).slice(0, 10_000).map((pkg) => ({
    name: cut(pkg.name, 255),
    version: cut(pkg.version, 128),
    publisher: cut(pkg.publisher, 255),
    install_path: '',
    size: Math.max(0, Math.round(pkg.size)),
    is_running: running.has(pkg.name),
  }))
}

const portOf = (value: string) => {
  const port = Number.parseInt(value, 10)
  return Number.isInteger(port) && port >= 0 && port <= 65_535 ? port : null
}

async function connections(): Promise<NonNullable<AgentHeartbeat['connections']>> {
  return (await si.networkConnections()).slice(0, 5000).map((connection) => {
    // A listening socket has no peer; tools print it as `*`, `0.0.0.0:*` or `[::]:*`.
    const listening = connection.peerPort === '*' || ['', '*', '0.0.0.0', '::'].includes(connection.peerAddress)
    const remote = listening ? null : connection.peerAddress
    return {
      local_address: cut(connection.localAddress, 64),
      local_port: portOf(connection.localPort) ?? 0,
      remote_address: remote ? cut(remote, 64) : null,
      remote_port: remote ? portOf(connection.peerPort) : null,
      protocol: cut(connection.protocol, 16),
      status: cut(connection.state, 32),
      process_name: cut(connection.process, 255),
    }
  })
}

/**
 * The slow part, sent every few minutes: system info, top processes, installed applications and
 * connections. Each part fails alone: a missing tool costs that part, not the heartbeat.
 */
export async function collectInventory(onError: (part: string, error: unknown) => void): Promise<Inventory> {
  const settle = async <T>(part: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work()
    } catch (error) {
      onError(part, error)
      return undefined
    }
  }
  const system = await settle('system', systemInfo)
  const list = (await settle('processes', () => si.processes()))?.list
  const processes = list ? topProcesses(list) : undefined
  const running = new Set((list ?? []).map((process) => process.name))
  const installed = await settle('applications', () => applications(running))
  const open = await settle('connections', connections)
  return {
    ...(system ? { system } : {}),
    ...(processes ? { processes } : {}),
    ...(installed ? { applications: installed } : {}),
    ...(open ? { connections: open } : {}),
  }
}
