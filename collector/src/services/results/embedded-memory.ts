import type { TimeSeriesStore } from '@guard/shared'
import { Gauge, type Registry } from 'prom-client'
import { selectRows } from './query.ts'

/**
 * With chDB, ClickHouse's memory (caches, parts being written and merged) lives in the collector's own
 * process: its RSS counts it beside the JavaScript heap. This gauge reads what chDB itself tracks, so
 * an operator (or bench/scale) can tell which of the two grows. A ClickHouse server reports its own.
 */
export function registerEmbeddedTimeSeriesMemory(registry: Registry, timeseries: TimeSeriesStore): void {
  if (timeseries.engine !== 'chdb') return
  new Gauge({
    name: 'guard_collector_chdb_memory_bytes',
    help: 'Memory chDB (the embedded ClickHouse) tracks in this process: its MemoryTracking metric',
    registers: [registry],
    async collect() {
      const [row] = await selectRows<{ bytes: number }>(
        timeseries,
        "SELECT value AS bytes FROM system.metrics WHERE metric = 'MemoryTracking'",
        {},
      )
      this.set(Number(row?.bytes ?? 0))
    },
  })
}
