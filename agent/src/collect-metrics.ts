import { statfs } from 'node:fs/promises'
import { cpus, freemem, totalmem } from 'node:os'

/** The spec's agent metrics object: cpu, memory and disk of the root filesystem. */
export interface AgentMetrics {
  cpu: { usage_percent: number; cores: number }
  memory: { total_gb: number; used_gb: number; usage_percent: number }
  disk: { total_gb: number; used_gb: number; usage_percent: number }
}

const GB = 1024 ** 3
const round = (value: number) => Math.round(value * 100) / 100

function cpuTimes() {
  return cpus().reduce(
    (sum, cpu) => {
      const { idle, user, nice, sys, irq } = cpu.times
      return { idle: sum.idle + idle, total: sum.total + idle + user + nice + sys + irq }
    },
    { idle: 0, total: 0 },
  )
}

/** CPU usage is a difference of two samples `sampleMs` apart; a single reading says nothing. */
export async function collectMetrics(options: { sampleMs?: number; diskPath?: string } = {}): Promise<AgentMetrics> {
  const before = cpuTimes()
  await new Promise((resolve) => setTimeout(resolve, options.sampleMs ?? 500))
  const after = cpuTimes()
  const total = after.total - before.total
  const cpuUsage = total > 0 ? (1 - (after.idle - before.idle) / total) * 100 : 0

  const memoryTotal = totalmem()
  const memoryUsed = memoryTotal - freemem()
  const disk = await statfs(options.diskPath ?? '/')
  const diskTotal = disk.blocks * disk.bsize
  const diskUsed = (disk.blocks - disk.bfree) * disk.bsize

  return {
    cpu: { usage_percent: round(cpuUsage), cores: cpus().length },
    memory: {
      total_gb: round(memoryTotal / GB),
      used_gb: round(memoryUsed / GB),
      usage_percent: round((memoryUsed / memoryTotal) * 100),
    },
    disk: {
      total_gb: round(diskTotal / GB),
      used_gb: round(diskUsed / GB),
      usage_percent: diskTotal > 0 ? round((diskUsed / diskTotal) * 100) : 0,
    },
  }
}
