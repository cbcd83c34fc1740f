import { describe, expect, it } from 'vitest'
import { collectMetrics } from './collect-metrics.ts'

describe('collectMetrics', () => {
  it('reports cpu, memory and disk of this machine within their bounds', async () => {
    const metrics = await collectMetrics({ sampleMs: 50 })
    expect(metrics.cpu.cores).toBeGreaterThan(0)
    for (const part of [metrics.cpu, metrics.memory, metrics.disk]) {
      expect(part.usage_percent).toBeGreaterThanOrEqual(0)
      expect(part.usage_percent).toBeLessThanOrEqual(100)
    }
    expect(metrics.memory.used_gb).toBeLessThanOrEqual(metrics.memory.total_gb)
    expect(metrics.disk.total_gb).toBeGreaterThan(0)
  })
})
