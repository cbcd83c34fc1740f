import { type MariaDbServer, startMariaDb } from '@guard/shared/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort, startTarpit, testContext } from '../../testing/fixtures.ts'
import { mysqlChecker } from './check.ts'

const server = await startMariaDb()

describe.skipIf(!server)('mysqlChecker against MariaDB', () => {
  const db = server as MariaDbServer
  const target = (options: Partial<Parameters<typeof mysqlChecker.check>[0]> = {}) => ({
    kind: 'mysql' as const,
    host: '127.0.0.1',
    port: db.port,
    username: db.user,
    database: db.database,
    secrets: { password: db.password },
    ...options,
  })
  const countServers = async () => {
    const mysql = await import('mysql2/promise')
    const connection = await mysql.createConnection({
      host: db.host,
      port: db.port,
      user: db.user,
      password: db.password,
      database: db.database,
    })
    try {
      const [rows] = await connection.query({ sql: 'SELECT count(*) FROM servers', rowsAsArray: true })
      return Array.isArray(rows) && Array.isArray(rows[0]) ? Number(rows[0][0]) : undefined
    } finally {
      await connection.end()
    }
  }

  beforeAll(async () => {
    const mysql = await import('mysql2/promise')
    const connection = await mysql.createConnection({
      host: db.host,
      port: db.port,
      user: db.user,
      password: db.password,
      database: db.database,
    })
    await connection.query('CREATE TABLE servers (name varchar(20), healthy boolean)')
    await connection.query("INSERT INTO servers VALUES ('a', true), ('b', true), ('c', false)")
    await connection.end()
  })
  afterAll(() => db.stop())

  it('is up when the account signs in and SELECT 1 answers, with connect and query phases', async () => {
    const outcome = await mysqlChecker.check(target(), testContext())
    expect(outcome).toMatchObject({ status: 'up', address: '127.0.0.1' })
    expect(outcome.phases?.connectMs).toBeGreaterThan(0)
    expect(outcome.phases?.queryMs).toBeGreaterThan(0)
    expect(JSON.stringify(outcome)).not.toContain(db.password)
  })

  it('is up when the query’s row count and first value hold', async () => {
    const outcome = await mysqlChecker.check(
      target({
        query: 'SELECT name FROM servers WHERE healthy ORDER BY name',
        expectRows: { count: 2 },
        expectValue: 'a',
      }),
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'up' })
  })

  it('fails the row assertion with expected and actual', async () => {
    const outcome = await mysqlChecker.check(
      target({ query: 'SELECT name FROM servers', expectRows: { count: 2, comparison: '<=' } }),
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'assertion_failed', error: 'expected rows <= 2, got 3' })
  })

  it('fails the value assertion with expected and actual', async () => {
    const outcome = await mysqlChecker.check(
      target({ query: 'SELECT count(*) FROM servers WHERE NOT healthy', expectValue: '0' }),
      testContext(),
    )
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'assertion_failed',
      error: 'expected value "0", got "1"',
    })
  })

  it('refuses a write the account may make elsewhere: the transaction is read-only', async () => {
    const outcome = await mysqlChecker.check(target({ query: "INSERT INTO servers VALUES ('d', true)" }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'query_failed' })
    expect(outcome.error).toMatch(/READ ONLY transaction/i)
    expect(await countServers()).toBe(3)
  })

  it('runs one statement only', async () => {
    const outcome = await mysqlChecker.check(target({ query: 'COMMIT; DELETE FROM servers' }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'query_failed' })
    expect(await countServers()).toBe(3)
  })

  it('reports a wrong password as auth_failed, without the password', async () => {
    const wrong = 'not-the-guard-password-81'
    const outcome = await mysqlChecker.check(target({ secrets: { password: wrong } }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
    expect(outcome.error).toMatch(/Access denied/)
    expect(JSON.stringify(outcome)).not.toContain(wrong)
  })

  it('reports a closed port as connect_refused', async () => {
    const outcome = await mysqlChecker.check(target({ port: await closedPort() }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'connect_refused' })
  })

  it('refuses 127.0.0.1 without the private-targets flag', async () => {
    const outcome = await mysqlChecker.check(target(), testContext(1000, false))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'refused_private_target' })
  })

  it('ends a check against a silent server at its timeout', async () => {
    const tarpit = await startTarpit()
    try {
      const started = performance.now()
      const outcome = await mysqlChecker.check(target({ port: tarpit.port }), testContext(300))
      expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout' })
      expect(performance.now() - started).toBeLessThan(1000)
    } finally {
      await tarpit.close()
    }
  })
})
