import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest'
import { openTestTimeSeriesStoreOverHttp } from '../testing/clickhouse-http.ts'
import { openTestTimeSeriesStore, openTimeSeriesStore } from './timeseries.ts'
import { migrateTimeSeries, splitStatements } from './timeseries-migrate.ts'
import type { TimeSeriesStore } from './types.ts'

const folders: string[] = []

function temporaryFolder(): string {
  const directory = mkdtempSync(join(tmpdir(), 'guard-timeseries-'))
  folders.push(directory)
  return directory
}

function migrationFolder(files: Record<string, string>): string {
  const directory = temporaryFolder()
  for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text)
  return directory
}

afterAll(() => {
  for (const directory of folders) rmSync(directory, { recursive: true, force: true })
})

const RESULTS = `-- Raw check results and a per-minute rollup fed by a materialized view.
CREATE TABLE IF NOT EXISTS check_results (
  monitor_id String,
  location LowCardinality(String),
  checked_at DateTime64(3, 'UTC'),
  response_ms UInt32
) ENGINE = MergeTree ORDER BY (monitor_id, checked_at);

CREATE TABLE IF NOT EXISTS results_per_minute (
  monitor_id String,
  minute DateTime('UTC'),
  checks UInt64
) ENGINE = SummingMergeTree ORDER BY (monitor_id, minute);

CREATE MATERIALIZED VIEW IF NOT EXISTS results_per_minute_mv TO results_per_minute AS
SELECT monitor_id, toStartOfMinute(checked_at) AS minute, count() AS checks
FROM check_results GROUP BY monitor_id, minute;
`

async function tables(store: TimeSeriesStore, database: string): Promise<string[]> {
  const result = await store.client.query({
    query: 'SELECT name FROM system.tables WHERE database = {database:String} ORDER BY name',
    query_params: { database },
    format: 'JSONEachRow',
  })
  return (await result.json<{ name: string }>()).map((row) => row.name)
}

test('statements split where a line ends with a semicolon', () => {
  expect(splitStatements("-- only a comment;\nSELECT 'a;b';\n\nSELECT 2;  \r\nSELECT 3")).toEqual([
    "SELECT 'a;b'",
    'SELECT 2',
    'SELECT 3',
  ])
})

let store: TimeSeriesStore

/** Every test below runs on chDB in process and through the CLICKHOUSE_URL path (HTTP, a double over chDB). */
describe.each([
  { engine: 'chdb', open: openTestTimeSeriesStore },
  { engine: 'http', open: openTestTimeSeriesStoreOverHttp },
])('$engine', ({ engine, open }) => {
  beforeEach(async () => {
    store = await open()
  })
  afterEach(() => store.close())

  test('migrations create tables in the test database', async () => {
    const directory = migrationFolder({ '001_results.sql': RESULTS })
    expect(store.database).toMatch(/^t_[0-9a-f]+$/)
    expect(store.engine).toBe(engine === 'http' ? 'clickhouse' : 'chdb')
    expect(await migrateTimeSeries(store, { service: 'collector', directory })).toEqual(['001_results.sql'])
    expect(await migrateTimeSeries(store, { service: 'collector', directory })).toEqual([])
    expect(await tables(store, store.database)).toEqual([
      'check_results',
      'guard_migrations',
      'results_per_minute',
      'results_per_minute_mv',
    ])
    expect(await tables(store, 'default')).toEqual([])

    // Unqualified names in the view resolved to the test database: inserts feed the rollup.
    await store.client.insert({
      table: 'check_results',
      values: [
        { monitor_id: 'm1', location: 'fra', checked_at: '2024-01-02T03:04:05.000Z', response_ms: 10 },
        { monitor_id: 'm1', location: 'iad', checked_at: '2024-01-02T03:04:50.000Z', response_ms: 20 },
      ],
      format: 'JSONEachRow',
    })
    const rollup = await store.client.query({
      query: 'SELECT monitor_id, minute, sum(checks) AS checks FROM results_per_minute GROUP BY monitor_id, minute',
      format: 'JSONEachRow',
    })
    expect(await rollup.json()).toEqual([{ monitor_id: 'm1', minute: '2024-01-02T03:04:00Z', checks: 2 }])
  })

  test('a changed time-series migration is refused', async () => {
    const directory = migrationFolder({ '001_results.sql': RESULTS })
    await migrateTimeSeries(store, { service: 'collector', directory })
    writeFileSync(join(directory, '001_results.sql'), `${RESULTS}\n-- edited\n`)
    await expect(migrateTimeSeries(store, { service: 'collector', directory })).rejects.toThrow(
      /001_results\.sql \(service collector\) was changed after it was applied/,
    )
  })

  test('a time-series database a newer release migrated is refused before anything runs', async () => {
    const newer = migrationFolder({
      '001_results.sql': RESULTS,
      '082_later.sql': 'CREATE TABLE later (id UInt8) ENGINE = Memory',
    })
    await migrateTimeSeries(store, { service: 'collector', directory: newer })
    const older = migrationFolder({
      '001_results.sql': RESULTS,
      '002_pending.sql': 'CREATE TABLE pending (id UInt8) ENGINE = Memory',
    })
    await expect(migrateTimeSeries(store, { service: 'collector', directory: older })).rejects.toThrow(
      /ClickHouse database holds 1 migration\(s\) of service collector that this Guard does not know: 082_later\.sql\. Its schema is at version 82 \(082_later\.sql\), this Guard's at 2 \(002_pending\.sql\)/,
    )
    expect(await tables(store, store.database)).not.toContain('pending')
  })

  test('inserted rows read back with the same timestamps', async () => {
    await store.client.command({
      query: "CREATE TABLE samples (at DateTime64(3, 'UTC'), value UInt64) ENGINE = MergeTree ORDER BY at",
    })
    const times = [new Date('2024-01-02T03:04:05.678Z'), new Date('2024-01-02T03:04:05.679Z'), new Date()]
    await store.client.insert({
      table: 'samples',
      // Date objects serialize through JSON.stringify as toISOString().
      values: times.map((at, value) => ({ at, value })),
      format: 'JSONEachRow',
    })
    const result = await store.client.query({
      query: `SELECT at, toUnixTimestamp64Milli(at) AS ms, value FROM samples
              WHERE at >= fromUnixTimestamp64Milli({from:Int64}) ORDER BY at`,
      query_params: { from: times[1]!.getTime() },
      format: 'JSONEachRow',
    })
    expect(await result.json()).toEqual(
      times.slice(1).map((at, index) => ({ at: at.toISOString(), ms: at.getTime(), value: index + 1 })),
    )
  })

  test('a test database is dropped on close', async () => {
    const other = await open()
    await other.client.command({ query: 'CREATE TABLE kept (n UInt8) ENGINE = MergeTree ORDER BY n' })
    expect(await tables(store, other.database)).toEqual(['kept'])
    await other.close()
    const result = await store.client.query({
      query: 'SELECT name FROM system.databases WHERE name = {name:String}',
      query_params: { name: other.database },
      format: 'JSONEachRow',
    })
    expect(await result.json()).toEqual([])
  })
})

describe('chdb only', () => {
  beforeEach(async () => {
    store = await openTestTimeSeriesStore()
  })
  afterEach(() => store.close())

  test('a second chdb path in one process is refused', async () => {
    const first = temporaryFolder()
    await expect(openTimeSeriesStore({ dataDir: first, database: 'guard' })).rejects.toThrow(
      /chDB is already open on .* and cannot also open .*one data directory per process/,
    )

    // Once every store on a directory is closed, the process may bind another, and stores on it share it.
    await store.close()
    const a = await openTimeSeriesStore({ dataDir: first, database: 'guard' })
    const b = await openTimeSeriesStore({ dataDir: first, database: 'other' })
    store = await openTestTimeSeriesStore()
    await a.client.command({ query: 'CREATE TABLE IF NOT EXISTS marks (n UInt8) ENGINE = MergeTree ORDER BY n' })
    expect(await tables(b, 'guard')).toEqual(['marks'])
    expect(await tables(store, 'guard')).toEqual(['marks'])
    await expect(openTimeSeriesStore({ dataDir: temporaryFolder(), database: 'guard' })).rejects.toThrow(
      /one data directory per process/,
    )
    await a.close()
    await b.close()
  })
})
