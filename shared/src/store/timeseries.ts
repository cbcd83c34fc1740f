import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { type ClickHouseClientConfigOptions, type ClickHouseSettings, createClient } from '@clickhouse/client'
import { type ChdbSession, openChdbSession } from './chdb.ts'
import { lockDataDir } from './data-dir-lock.ts'
import type { TimeSeriesStore } from './types.ts'

/**
 * Pinned so both engines read and write the same JSON. Their defaults differ: chDB writes 64-bit
 * integers as JSON numbers, a ClickHouse server quotes them.
 */
const SETTINGS: ClickHouseSettings = {
  // DateTime/DateTime64 come back as `2024-01-02T03:04:05.678Z`, which Date.parse reads.
  date_time_output_format: 'iso',
  // Inserted rows may carry Date#toISOString() values.
  date_time_input_format: 'best_effort',
  // Counts and sums as numbers; cast to String in SQL where a value may pass 2^53.
  output_format_json_quote_64bit_integers: 0,
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Database names go into DDL text, which cannot take bound parameters. */
function checkDatabase(database: string): string {
  if (!IDENTIFIER.test(database)) throw new Error(`invalid ClickHouse database name ${JSON.stringify(database)}`)
  return database
}

export interface TimeSeriesOptions {
  clickhouseUrl?: string
  clickhouseUser?: string
  clickhousePassword?: string
  database: string
  dataDir: string
}

async function openServer(url: string, options: TimeSeriesOptions): Promise<TimeSeriesStore> {
  const database = checkDatabase(options.database)
  const config = {
    url,
    username: options.clickhouseUser,
    password: options.clickhousePassword,
    clickhouse_settings: SETTINGS,
  }
  // A client whose default database does not exist yet fails every request, this one included.
  const bootstrap = createClient(config)
  try {
    await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` })
  } finally {
    await bootstrap.close()
  }
  const client = createClient({ ...config, database })
  return { engine: 'clickhouse', client, database, close: () => client.close() }
}

async function openOnChdb(
  session: ChdbSession,
  database: string,
  options: { dropOnClose: boolean },
): Promise<TimeSeriesStore> {
  // chdb types its connection against @clickhouse/client-common, which @clickhouse/client 1.23
  // bundles as its own copy; the shapes match at runtime but the two declarations differ.
  const connection = session.connection as unknown as ClickHouseClientConfigOptions['connection']
  const client = createClient({ connection, clickhouse_settings: SETTINGS })
  try {
    await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` })
    // chDB ignores createClient's `database` option; USE makes it this session's default instead
    // (sessions do not share it), so unqualified table names resolve as on a server.
    await client.command({ query: `USE ${database}` })
  } catch (error) {
    await client.close()
    await session.release()
    throw error
  }
  return {
    engine: 'chdb',
    client,
    database,
    async close() {
      try {
        if (options.dropOnClose) await client.command({ query: `DROP DATABASE IF EXISTS ${database}` })
      } finally {
        await client.close()
        await session.release()
      }
    },
  }
}

/** A ClickHouse server when a URL is configured, otherwise chDB under `<dataDir>/chdb`; the database is created if missing. */
export async function openTimeSeriesStore(options: TimeSeriesOptions): Promise<TimeSeriesStore> {
  if (options.clickhouseUrl) return openServer(options.clickhouseUrl, options)
  const database = checkDatabase(options.database)
  // chDB's files belong to one process, like PGlite's: hold the data directory first.
  const lock = lockDataDir(options.dataDir)
  let store: TimeSeriesStore
  try {
    store = await openOnChdb(await openChdbSession(join(options.dataDir, 'chdb')), database, { dropOnClose: false })
  } catch (error) {
    lock.release()
    throw error
  }
  return {
    ...store,
    async close() {
      try {
        await store.close()
      } finally {
        lock.release()
      }
    },
  }
}

/**
 * A fresh database `t_<random>` on the process' one chDB (as clickhouse-js's own tests isolate
 * tests); `close()` drops it.
 */
export async function openTestTimeSeriesStore(): Promise<TimeSeriesStore> {
  const database = `t_${randomBytes(8).toString('hex')}`
  return openOnChdb(await openChdbSession(), database, { dropOnClose: true })
}
