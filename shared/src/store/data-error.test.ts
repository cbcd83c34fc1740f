import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestTimeSeriesStoreOverHttp } from '../testing/clickhouse-http.ts'
import { openTestRelationalStore, openTestTimeSeriesStore } from '../testing/index.ts'
import { isDataError } from './data-error.ts'
import type { RelationalStore, TimeSeriesStore } from './types.ts'
import { isStoreUnavailable } from './unavailable.ts'

const failure = async (work: () => Promise<unknown>) => {
  try {
    await work()
  } catch (error) {
    return error
  }
  throw new Error('expected the store to refuse')
}

describe('data errors', () => {
  let relational: RelationalStore
  beforeAll(async () => {
    relational = await openTestRelationalStore()
  })
  afterAll(() => relational.close())

  it('are what PostgreSQL refuses in the data: a NUL in JSON text, an overflow, a duplicate key', async () => {
    const nul = await failure(() => relational.query(`SELECT $1::json ->> 'a'`, ['{"a":"\\u0000"}']))
    const overflow = await failure(() => relational.query('SELECT $1::int4 + 1', [2147483647]))
    await relational.query('CREATE TEMP TABLE once (id int PRIMARY KEY)')
    await relational.query('INSERT INTO once VALUES (1)')
    const duplicate = await failure(() => relational.query('INSERT INTO once VALUES (1)'))
    for (const error of [nul, overflow, duplicate]) {
      expect(isDataError(error), String(error)).toBe(true)
      expect(isStoreUnavailable(error)).toBe(false)
    }
  })

  it('are not an unknown table or a connection failure', async () => {
    expect(isDataError(await failure(() => relational.query('SELECT * FROM missing_table')))).toBe(false)
    expect(isDataError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(
      false,
    )
  })
})

/** ClickHouse's errors read the same in process (chDB) and over HTTP (the CLICKHOUSE_URL path). */
describe.each([
  { engine: 'chdb', open: openTestTimeSeriesStore },
  { engine: 'http', open: openTestTimeSeriesStoreOverHttp },
])('ClickHouse data errors, $engine', ({ open }) => {
  let timeseries: TimeSeriesStore
  beforeAll(async () => {
    timeseries = await open()
    await timeseries.client.command({ query: 'CREATE TABLE rows (text String, n UInt8) ENGINE = MergeTree ORDER BY n' })
  })
  afterAll(() => timeseries.close())

  it('are what ClickHouse cannot parse: a lone surrogate escape, text in a number column', async () => {
    for (const row of [
      ['a\ud83d', 1],
      ['b', 'not a number'],
    ]) {
      const error = await failure(() =>
        timeseries.client.insert({ table: 'rows', values: [row], format: 'JSONCompactEachRow' }),
      )
      expect(isDataError(error), String(row)).toBe(true)
    }
  })

  it('are not an unknown table or a syntax error', async () => {
    expect(isDataError(await failure(() => timeseries.client.query({ query: 'SELEC 1' })))).toBe(false)
    expect(isDataError(await failure(() => timeseries.client.query({ query: 'SELECT * FROM missing_table' })))).toBe(
      false,
    )
  })
})
