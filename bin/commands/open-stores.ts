import { openRelationalStore, openTimeSeriesStore } from '@guard/shared'

interface StoreConfig {
  GUARD_DATA_DIR: string
  DATABASE_URL?: string | undefined
  CLICKHOUSE_URL?: string | undefined
  CLICKHOUSE_USER?: string | undefined
  CLICKHOUSE_PASSWORD?: string | undefined
  CLICKHOUSE_DATABASE: string
  GUARD_PGLITE_SHARED_BUFFERS?: string | undefined
}

/** Both stores as configured: servers when their URLs are set, PGlite and chDB in the data directory otherwise. */
export async function openStores(config: StoreConfig) {
  const sql = await openRelationalStore({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.GUARD_DATA_DIR,
    pgliteSharedBuffers: config.GUARD_PGLITE_SHARED_BUFFERS,
  })
  const timeseries = await openTimeSeriesStore({
    clickhouseUrl: config.CLICKHOUSE_URL,
    clickhouseUser: config.CLICKHOUSE_USER,
    clickhousePassword: config.CLICKHOUSE_PASSWORD,
    database: config.CLICKHOUSE_DATABASE,
    dataDir: config.GUARD_DATA_DIR,
  })
  return { sql, timeseries }
}
