import { createInProcessBus, createLogger, guardStreams } from '@guard/shared'
import { openTestRelationalStore, openTestTimeSeriesStore } from '@guard/shared/testing'
import { collectorEnvSchema } from './env.ts'
import { prepareCollector } from './server.ts'

/** A collector context on real engines (PGlite from a template, a fresh chDB database), in process. */
export async function collectorForTest() {
  const sql = await openTestRelationalStore()
  const timeseries = await openTestTimeSeriesStore()
  const bus = createInProcessBus({ streams: guardStreams })
  const env = collectorEnvSchema.parse({ GUARD_INGEST_MAX_WAIT_MS: '50' })
  const log = createLogger({ name: 'collector-test', level: 'silent', pretty: false })
  const prepared = await prepareCollector({ env, log, sql, timeseries, bus })
  return {
    ...prepared,
    apiKey: prepared.created!.key,
    async close() {
      await bus.close()
      await timeseries.close()
      await sql.close()
    },
  }
}
