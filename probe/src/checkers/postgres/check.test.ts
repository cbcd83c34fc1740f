import { type PostgresServer, startPostgres } from '@guard/shared/testing'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort, startTarpit, testContext } from '../../testing/fixtures.ts'
import { postgresChecker } from './check.ts'

const PASSWORD = 'pg-reader-secret-7731'
const server = await startPostgres()

/** The test server trusts everyone; this makes the reader role sign in with its password (scram). */
async function requirePassword(url: string) {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`CREATE ROLE reader LOGIN PASSWORD '${PASSWORD}'`)
    await admin.query('CREATE TABLE servers (name text, healthy boolean)')
    await admin.query("INSERT INTO servers VALUES ('a', true), ('b', true), ('c', false)")
    await admin.query('GRANT SELECT, INSERT ON servers TO reader')
    const { rows } = await admin.query<{ hba_file: string }>('SHOW hba_file')
    const hba = ['host all reader 127.0.0.1/32 scram-sha-256', 'host all all 127.0.0.1/32 trust', 'local all all trust']
    const lines = hba.map((line) => `('${line}')`).join(', ')
    await admin.query(`COPY (SELECT line FROM (VALUES ${lines}) AS hba(line)) TO '${rows[0]?.hba_file}'`)
    await admin.query('SELECT pg_reload_conf()')
  } finally {
    await admin.end()
  }
}

describe.skipIf(!server)('postgresChecker', () => {
  const db = server as PostgresServer
  let port: number
  const target = (options: Partial<Parameters<typeof postgresChecker.check>[0]> = {}) => ({
    kind: 'postgres' as const,
    host: '127.0.0.1',
    port,
    username: 'reader',
    database: 'guard',
    secrets: { password: PASSWORD },
    ...options,
  })

  beforeAll(async () => {
    port = Number(new URL(db.url).port)
    await requirePassword(db.url)
  })
  afterAll(() => db.stop())

  it('is up when the role signs in and SELECT 1 answers, with connect and query phases', async () => {
    const outcome = await postgresChecker.check(target(), testContext())
    expect(outcome).toMatchObject({ status: 'up', address: '127.0.0.1' })
    expect(outcome.phases?.connectMs).toBeGreaterThan(0)
    expect(outcome.phases?.queryMs).toBeGreaterThan(0)
    expect(JSON.stringify(outcome)).not.toContain(PASSWORD)
  })

  it('is up when the query’s row count and first value hold', async () => {
    const outcome = await postgresChecker.check(
      target({
        query: 'SELECT count(*) FROM servers WHERE healthy',
        expectRows: { count: 1 },
        expectValue: '2',
      }),
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'up' })
  })

  it('fails the row assertion with expected and actual', async () => {
    const outcome = await postgresChecker.check(
      target({ query: 'SELECT name FROM servers', expectRows: { count: 5, comparison: '>=' } }),
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'assertion_failed', error: 'expected rows >= 5, got 3' })
  })

  it('fails the value assertion with expected and actual', async () => {
    const outcome = await postgresChecker.check(
      target({ query: 'SELECT healthy FROM servers WHERE name = $$c$$', expectValue: 'true' }),
      testContext(),
    )
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'assertion_failed',
      error: 'expected value "true", got "false"',
    })
  })

  it('refuses a write the role may make elsewhere: the session is read-only', async () => {
    const outcome = await postgresChecker.check(
      target({ query: "INSERT INTO servers VALUES ('d', true)" }),
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'query_failed' })
    expect(outcome.error).toMatch(/read-only transaction/)
    const admin = new pg.Client({ connectionString: db.url })
    await admin.connect()
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM servers')
    await admin.end()
    expect(rows[0]).toEqual({ n: 3 })
  })

  it('reports a query the server rejects as query_failed', async () => {
    const outcome = await postgresChecker.check(target({ query: 'SELECT * FROM missing_table' }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'query_failed' })
    expect(outcome.error).toMatch(/missing_table/)
  })

  it('reports a wrong password as auth_failed, without the password', async () => {
    const wrong = 'not-the-reader-password-55'
    const outcome = await postgresChecker.check(target({ secrets: { password: wrong } }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
    expect(outcome.error).toMatch(/password authentication failed/)
    expect(JSON.stringify(outcome)).not.toContain(wrong)
  })

  it('reports a missing password as auth_failed', async () => {
    const outcome = await postgresChecker.check(target({ secrets: {} }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
  })

  it('reports a closed port as connect_refused', async () => {
    const outcome = await postgresChecker.check(target({ port: await closedPort() }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'connect_refused' })
  })

  it('refuses 127.0.0.1 without the private-targets flag', async () => {
    const outcome = await postgresChecker.check(target(), testContext(1000, false))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'refused_private_target' })
  })

  it('ends a check against a silent server at its timeout', async () => {
    const tarpit = await startTarpit()
    try {
      const started = performance.now()
      const outcome = await postgresChecker.check(target({ port: tarpit.port }), testContext(300))
      expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout' })
      expect(performance.now() - started).toBeLessThan(1000)
    } finally {
      await tarpit.close()
    }
  })
})
