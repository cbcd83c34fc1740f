import type { RelationalStore, TimeSeriesStore } from '@guard/shared'
import { Gauge, type Registry } from 'prom-client'
import { selectRows } from './query.ts'

/**
 * In embedded mode ClickHouse (chDB) and PostgreSQL (PGlite) live in the collector's own process:
 * its RSS counts them beside the JavaScript heap. These gauges read what each engine holds, so an
 * operator (or bench/memory, bench/scale) can tell which one grows. Servers report their own.
 */
export function registerEmbeddedStoreMemory(
  registry: Registry,
  stores: { sql: Pick<RelationalStore, 'memoryBytes'>; timeseries: TimeSeriesStore },
): void {
  const { sql, timeseries } = stores
  if (timeseries.engine === 'chdb') {
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
  const pgliteBytes = sql.memoryBytes?.bind(sql)
  if (pgliteBytes) {
    new Gauge({
      name: 'guard_collector_pglite_memory_bytes',
      help: 'The WebAssembly memory of PGlite (the embedded PostgreSQL) in this process: its buffers and caches',
      registers: [registry],
      collect() {
        this.set(pgliteBytes())
      },
    })
  }
}
