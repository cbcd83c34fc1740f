import { agentHeartbeat } from '@guard/shared'
import { describe, expect, it } from 'vitest'
import { collectInventory } from './collect-inventory.ts'
import { collectMetrics } from './collect-metrics.ts'

describe('collecting on this machine', () => {
  it('reports cpu, memory, disks and network as a heartbeat the collector accepts', async () => {
    await collectMetrics()
    const { metrics, network } = await collectMetrics()
    expect(metrics.cpu.cores).toBeGreaterThan(0)
    expect(metrics.memory.used_gb).toBeLessThanOrEqual(metrics.memory.total_gb)
    expect(metrics.disk.total_gb).toBeGreaterThan(0)
    expect(metrics.filesystems?.length).toBeGreaterThan(0)
    const parsed = agentHeartbeat.safeParse({ device_id: 'd', metrics, network })
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true)
  })

  it('collects system info, top processes and connections within the wire limits', async () => {
    const problems: string[] = []
    const inventory = await collectInventory((part) => problems.push(part))
    expect(problems).toEqual([])
    expect(inventory.system?.cpu_cores).toBeGreaterThan(0)
    expect(inventory.system?.total_memory).toBeGreaterThan(0)
    expect(inventory.processes?.length).toBeGreaterThan(0)
    expect(inventory.processes?.every((process) => process.pid > 0 && process.name !== '')).toBe(true)
    expect(inventory.processes?.length).toBeLessThanOrEqual(50)
    const parsed = agentHeartbeat.safeParse({ device_id: 'd', metrics: (await collectMetrics()).metrics, ...inventory })
    expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3))).toBe(true)
  }, 60_000)
})
