import { loadavg } from 'node:os'
import type { AgentHeartbeat, AgentMetrics } from '@guard/shared'
import { truncateText } from '@guard/shared'
import { si } from './system-information.ts'

const GB = 1024 ** 3
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits
const percent = (value: number) => Math.min(100, Math.max(0, round(value)))

/** Pseudo and image filesystems say nothing about free space a user can run out of. */
const IGNORED_TYPES = /^(tmpfs|devtmpfs|squashfs|overlay|proc|sysfs|cgroup2?|devfs|autofs|nsfs|ramfs|efivarfs)$/i

/** The real filesystems, each device once (bind mounts repeat the same device). */
export async function realFilesystems() {
  const seen = new Set<string>()
  return (await si.fsSize()).filter((fs) => {
    if (IGNORED_TYPES.test(fs.type) || fs.size <= 0 || seen.has(fs.fs)) return false
    seen.add(fs.fs)
    return true
  })
}

/**
 * The spec's metrics object with load and every filesystem, plus per-interface network rates.
 * CPU usage and network rates are measured since the previous call, so the first sample is
 * since boot and each later one covers exactly one interval.
 */
export async function collectMetrics(): Promise<{ metrics: AgentMetrics; network: AgentHeartbeat['network'] }> {
  const [load, memory, filesystems, interfaces] = await Promise.all([
    si.currentLoad(),
    si.mem(),
    realFilesystems(),
    si.networkStats('*'),
  ])
  const memoryUsed = memory.total - memory.available
  const diskTotal = filesystems.reduce((sum, fs) => sum + fs.size, 0)
  const diskUsed = filesystems.reduce((sum, fs) => sum + fs.used, 0)
  const [one = 0, five = 0, fifteen = 0] = loadavg()
  return {
    metrics: {
      cpu: { usage_percent: percent(load.currentLoad), cores: Math.max(1, load.cpus.length) },
      memory: {
        total_gb: round(memory.total / GB),
        used_gb: round(memoryUsed / GB),
        usage_percent: percent((memoryUsed / memory.total) * 100),
      },
      disk: {
        total_gb: round(diskTotal / GB),
        used_gb: round(diskUsed / GB),
        usage_percent: diskTotal > 0 ? percent((diskUsed / diskTotal) * 100) : 0,
      },
      load: { one: round(one), five: round(five), fifteen: round(fifteen) },
      filesystems: filesystems.slice(0, 64).map((fs) => ({
        mount: truncateText(fs.mount, 512),
        fs: truncateText(fs.fs, 256),
        type: truncateText(fs.type, 64),
        size: Math.round(fs.size),
        used: Math.round(fs.used),
        usage_percent: percent(fs.size > 0 ? (fs.used / fs.size) * 100 : 0),
      })),
    },
    network: interfaces
      .filter((nic) => nic.iface !== 'lo')
      .slice(0, 64)
      .map((nic) => ({
        interface: truncateText(nic.iface, 64),
        rx_bytes_per_second: round(Math.max(0, nic.rx_sec ?? 0)),
        tx_bytes_per_second: round(Math.max(0, nic.tx_sec ?? 0)),
      })),
  }
}
