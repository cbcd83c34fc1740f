import { openTestTimeSeriesStore, type TimeSeriesStore } from '@guard/shared'
import { openTestRelationalStore } from '@guard/shared/testing'
import { Registry } from 'prom-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerEmbeddedStoreMemory } from './embedded-memory.ts'

describe('embedded store memory gauges', () => {
  let timeseries: TimeSeriesStore

  beforeAll(async () => {
    timeseries = await openTestTimeSeriesStore()
  })
  afterAll(() => timeseries.close())

  const gaugeValue = async (registry: Registry, name: string) =>
    (await registry.getMetricsAsJSON()).find((each) => each.name === name)?.values[0]?.value

  it("reports the memory chDB tracks in the collector's process at each scrape", async () => {
    const registry = new Registry()
    registerEmbeddedStoreMemory(registry, { sql: {}, timeseries })
    expect(await gaugeValue(registry, 'guard_collector_chdb_memory_bytes')).toBeGreaterThan(0)
  })

  it("reports PGlite's WebAssembly memory, at least the 128 MiB its module declares", async () => {
    const sql = await openTestRelationalStore()
    try {
      const registry = new Registry()
      registerEmbeddedStoreMemory(registry, { sql, timeseries })
      expect(await gaugeValue(registry, 'guard_collector_pglite_memory_bytes')).toBeGreaterThanOrEqual(
        128 * 1024 * 1024,
      )
    } finally {
      await sql.close()
    }
  })

  it('leaves both out with servers, which report their own memory', async () => {
    const registry = new Registry()
    registerEmbeddedStoreMemory(registry, { sql: {}, timeseries: { ...timeseries, engine: 'clickhouse' } })
    const text = await registry.metrics()
    expect(text).not.toContain('guard_collector_chdb_memory_bytes')
    expect(text).not.toContain('guard_collector_pglite_memory_bytes')
  })
})
