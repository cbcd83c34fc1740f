import { openTestTimeSeriesStore, type TimeSeriesStore } from '@guard/shared'
import { Registry } from 'prom-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerEmbeddedTimeSeriesMemory } from './embedded-memory.ts'

describe('embedded time-series memory gauge', () => {
  let timeseries: TimeSeriesStore

  beforeAll(async () => {
    timeseries = await openTestTimeSeriesStore()
  })
  afterAll(() => timeseries.close())

  it("reports the memory chDB tracks in the collector's process at each scrape", async () => {
    const registry = new Registry()
    registerEmbeddedTimeSeriesMemory(registry, timeseries)
    const [metric] = (await registry.getMetricsAsJSON()).filter(
      (each) => each.name === 'guard_collector_chdb_memory_bytes',
    )
    expect(metric?.values[0]?.value).toBeGreaterThan(0)
  })

  it('is left out with a ClickHouse server, which reports its own memory', async () => {
    const registry = new Registry()
    registerEmbeddedTimeSeriesMemory(registry, { ...timeseries, engine: 'clickhouse' })
    expect(await registry.metrics()).not.toContain('guard_collector_chdb_memory_bytes')
  })
})
