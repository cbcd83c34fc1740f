import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort, startTarpit, testContext } from '../../testing/fixtures.ts'
import { startMongoWire } from '../../testing/mongo-wire.ts'
import { mongodbChecker } from './check.ts'

/** Against a wire-protocol fake (probe/src/testing/mongo-wire.ts): no mongod can be fetched here. */
describe('mongodbChecker', () => {
  let mongo: Awaited<ReturnType<typeof startMongoWire>>
  const target = (options: Partial<Parameters<typeof mongodbChecker.check>[0]> = {}) => ({
    kind: 'mongodb' as const,
    host: '127.0.0.1',
    port: mongo.port,
    ...options,
  })

  beforeAll(async () => {
    mongo = await startMongoWire({
      collections: {
        'app.servers': [
          { _id: 1, name: 'a', healthy: true },
          { _id: 2, name: 'b', healthy: true },
          { _id: 3, name: 'c', healthy: false },
        ],
      },
    })
  })
  afterAll(() => mongo.close())

  it('is up when ping answers, with connect and query phases', async () => {
    const outcome = await mongodbChecker.check(target(), testContext())
    expect(outcome).toMatchObject({ status: 'up', address: '127.0.0.1' })
    expect(outcome.phases?.connectMs).toBeGreaterThan(0)
    expect(outcome.phases?.queryMs).toBeGreaterThan(0)
    expect(mongo.sent).toContain('ping')
  })

  it('counts a filter’s documents and reads the first one’s first field', async () => {
    const outcome = await mongodbChecker.check(
      target({
        query: { database: 'app', collection: 'servers', filter: { healthy: true } },
        expectRows: { count: 2 },
        expectValue: 'a',
      }),
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'up' })
  })

  it('asserts on an aggregation pipeline’s output', async () => {
    const pipeline = [{ $match: { healthy: false } }]
    const query = { database: 'app', collection: 'servers', pipeline }
    expect(
      await mongodbChecker.check(target({ query, expectRows: { count: 1 }, expectValue: 'c' }), testContext()),
    ).toMatchObject({ status: 'up' })
    expect(await mongodbChecker.check(target({ query, expectRows: { count: 2 } }), testContext())).toMatchObject({
      status: 'down',
      errorKind: 'assertion_failed',
      error: 'expected rows == 2, got 1',
    })
  })

  it('fails the value assertion with expected and actual', async () => {
    const outcome = await mongodbChecker.check(
      target({ query: { database: 'app', collection: 'servers', filter: { name: 'c' } }, expectValue: 'true' }),
      testContext(),
    )
    expect(outcome).toMatchObject({
      status: 'down',
      errorKind: 'assertion_failed',
      error: 'expected value "true", got "c"',
    })
  })

  it('reports a query the server rejects as query_failed', async () => {
    const outcome = await mongodbChecker.check(
      target({ query: { database: 'app', collection: 'servers', filter: { $bogus: 1 } } }),
      testContext(),
    )
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'query_failed' })
    expect(outcome.error).toMatch(/unknown top level operator/)
  })

  it('reports refused credentials as auth_failed, without the password', async () => {
    const password = 'not-the-mongo-password-42'
    const outcome = await mongodbChecker.check(target({ username: 'reader', secrets: { password } }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
    expect(mongo.sent).toContain('saslStart')
    expect(JSON.stringify(outcome)).not.toContain(password)
  })

  it('reports a closed port as connect_refused without waiting for server selection', async () => {
    const started = performance.now()
    const outcome = await mongodbChecker.check(target({ port: await closedPort() }), testContext(2000))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'connect_refused' })
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('refuses 127.0.0.1 without the private-targets flag', async () => {
    const outcome = await mongodbChecker.check(target(), testContext(1000, false))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'refused_private_target' })
  })

  it('ends a check against a silent server at its timeout', async () => {
    const tarpit = await startTarpit()
    try {
      const started = performance.now()
      const outcome = await mongodbChecker.check(target({ port: tarpit.port }), testContext(300))
      expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout' })
      expect(performance.now() - started).toBeLessThan(1000)
    } finally {
      await tarpit.close()
    }
  })
})
