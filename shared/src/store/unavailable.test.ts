import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startPostgres } from '../testing/postgres.ts'
import { openRelationalStore } from './relational.ts'
import { isStoreUnavailable } from './unavailable.ts'

const postgres = await startPostgres()
afterAll(() => postgres?.stop())

/** What a query answers with, as the HTTP edges see it. */
async function failureOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work
  } catch (error) {
    return error
  }
  throw new Error('the query did not fail')
}

describe('isStoreUnavailable', () => {
  it.skipIf(!postgres)('calls PostgreSQL stopped behind its Unix socket unavailable, not a fault', async () => {
    const store = await openRelationalStore({ databaseUrl: postgres!.socketUrl, dataDir: tmpdir() })
    try {
      expect((await store.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
      await postgres!.stopKeepingData()
      // The server removed its socket file: connecting fails with ENOENT, not ECONNREFUSED.
      const failure = await failureOf(store.query('SELECT 1'))
      expect(failure).toMatchObject({ code: 'ENOENT', syscall: 'connect' })
      expect(isStoreUnavailable(failure)).toBe(true)
    } finally {
      await postgres!.start()
      await store.close()
    }
  })

  it.skipIf(!postgres)(
    'a transaction whose server stops between two statements fails, and the process lives',
    async () => {
      const store = await openRelationalStore({ databaseUrl: postgres!.url, dataDir: tmpdir() })
      const uncaught: unknown[] = []
      const onUncaught = (error: unknown) => uncaught.push(error)
      process.on('uncaughtException', onUncaught)
      try {
        const failure = await failureOf(
          store.transaction(async (tx) => {
            await tx.query('SELECT 1')
            await postgres!.stopKeepingData()
            // The connection died while checked out, between statements: that is where pg emits 'error'.
            await new Promise((resolve) => setTimeout(resolve, 100))
            await tx.query('SELECT 2')
          }),
        )
        expect(failure).toBeInstanceOf(Error)
        expect(uncaught).toEqual([])
      } finally {
        process.off('uncaughtException', onUncaught)
        await postgres!.start()
        await store.close()
      }
    },
  )

  it('calls any failure to connect unavailable, and a missing file no more than that', async () => {
    for (const code of ['ENOENT', 'EACCES', 'ECONNREFUSED', 'ENOTSOCK']) {
      expect(isStoreUnavailable(Object.assign(new Error(`connect ${code}`), { code, syscall: 'connect' })), code).toBe(
        true,
      )
    }
    const missingFile = await failureOf(readFile(join(tmpdir(), 'guard-no-such-file')))
    expect(missingFile).toMatchObject({ code: 'ENOENT', syscall: 'open' })
    expect(isStoreUnavailable(missingFile)).toBe(false)
  })

  it('calls a read-only standby, a terminated session and a broken connection unavailable, a data error not', () => {
    // read_only_sql_transaction, admin_shutdown, connection_failure, cannot_establish_connection
    for (const code of ['25006', '57P01', '08006', '08001']) {
      expect(isStoreUnavailable(Object.assign(new Error('sqlstate'), { code })), code).toBe(true)
    }
    expect(isStoreUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false)
  })
})
