import { tmpdir } from 'node:os'
import { afterAll, describe, expect, it } from 'vitest'
import { startPostgres } from '../testing/postgres.ts'
import { parsePostgresTargets } from './postgres-hosts.ts'
import { openRelationalStore } from './relational.ts'
import { isStoreUnavailable } from './unavailable.ts'

describe('parsePostgresTargets', () => {
  it('splits libpq multi-host URLs into one pg URL per host, in order', () => {
    expect(
      parsePostgresTargets('postgres://u:p%40ss@h1:5432,h2:5433/guard?target_session_attrs=read-write&sslmode=disable'),
    ).toEqual({
      urls: ['postgres://u:p%40ss@h1:5432/guard?sslmode=disable', 'postgres://u:p%40ss@h2:5433/guard?sslmode=disable'],
      wants: 'read-write',
    })
    expect(parsePostgresTargets('postgresql://h/db')).toEqual({ urls: ['postgresql://h/db'], wants: 'any' })
    expect(parsePostgresTargets('postgres://u@h1,h2/db?target_session_attrs=primary').wants).toBe('read-write')
  })

  it('refuses what it cannot honour, naming why', () => {
    expect(() => parsePostgresTargets('mysql://h/db')).toThrow(/postgres:\/\//)
    expect(() => parsePostgresTargets('postgres://h1,,h2/db')).toThrow(/empty host/)
    expect(() => parsePostgresTargets('postgres://h1,h2/db?target_session_attrs=standby')).toThrow(
      /target_session_attrs=standby is not supported/,
    )
  })
})

const primary = await startPostgres()
const standby = primary && (await startPostgres({ standbyOf: primary }))
afterAll(async () => {
  await standby?.stop()
  await primary?.stop()
})

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work
  } catch (error) {
    return error
  }
  throw new Error('the query did not succeed in failing')
}

describe.skipIf(!standby)('a multi-host DATABASE_URL with target_session_attrs=read-write', () => {
  it('writes to the primary, answers unavailable while none accepts writes, then follows the promoted standby', async () => {
    // The standby first: a read-only server is passed over, not used.
    const databaseUrl = `postgres://guard@127.0.0.1:${standby!.port},127.0.0.1:${primary!.port}/guard?target_session_attrs=read-write`
    const store = await openRelationalStore({ databaseUrl, dataDir: tmpdir() })
    try {
      await store.query('CREATE TABLE acknowledged (id int PRIMARY KEY)')
      await store.transaction((tx) => tx.query('INSERT INTO acknowledged VALUES ($1), ($2)', [1, 2]))

      // A fast shutdown sends the standby every WAL record first: nothing committed is lost.
      await primary!.stopKeepingData()
      const duringSwitch = await failureOf(store.query('INSERT INTO acknowledged VALUES (3)'))
      expect(isStoreUnavailable(duringSwitch)).toBe(true)
      expect(isStoreUnavailable(await failureOf(store.transaction((tx) => tx.query('SELECT 1'))))).toBe(true)

      await standby!.promote()
      await store.transaction((tx) => tx.query('INSERT INTO acknowledged VALUES ($1)', [3]))
      await store.query('INSERT INTO acknowledged VALUES (4)')
      const { rows } = await store.query<{ id: number }>('SELECT id FROM acknowledged ORDER BY id')
      expect(rows.map((row) => row.id)).toEqual([1, 2, 3, 4])
    } finally {
      await store.close()
    }
  })

  it('fails to open while no host accepts writes, naming the hosts', async () => {
    const databaseUrl = `postgres://guard@127.0.0.1:${primary!.port}/guard?target_session_attrs=read-write`
    const failure = await failureOf(openRelationalStore({ databaseUrl, dataDir: tmpdir() }))
    expect(String((failure as Error).message)).toMatch(/no PostgreSQL server answers as read-write \(127\.0\.0\.1:/)
    expect(isStoreUnavailable(failure)).toBe(true)
  })
})
