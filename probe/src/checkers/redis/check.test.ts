import { type RedisServer, startRedis } from '@guard/shared/testing'
import { createClient } from 'redis'
import { generate } from 'selfsigned'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort, startTarpit, testContext } from '../../testing/fixtures.ts'
import { redisChecker } from './check.ts'

const pems = await generate([{ name: 'commonName', value: 'redis-fixture' }], { keyType: 'ec', algorithm: 'sha256' })
const server = await startRedis({ tls: { cert: pems.cert, key: pems.private } })

describe.skipIf(!server)('redisChecker', () => {
  const redis = server as RedisServer
  const target = (options: Partial<Parameters<typeof redisChecker.check>[0]> = {}) => ({
    kind: 'redis' as const,
    host: '127.0.0.1',
    port: redis.port,
    secrets: { password: redis.password },
    ...options,
  })

  beforeAll(async () => {
    const client = createClient({ socket: { host: redis.host, port: redis.port }, password: redis.password })
    await client.connect()
    await client.set('health', 'ok')
    await client.rPush('queue', ['a', 'b', 'c'])
    await client.destroy()
  })
  afterAll(() => redis.stop())

  it('is up when PING answers after AUTH, with connect and query phases', async () => {
    const outcome = await redisChecker.check(target(), testContext())
    expect(outcome).toMatchObject({ status: 'up', address: '127.0.0.1' })
    expect(outcome.phases?.connectMs).toBeGreaterThan(0)
    expect(outcome.phases?.queryMs).toBeGreaterThan(0)
    expect(JSON.stringify(outcome)).not.toContain(redis.password)
  })

  it('is up when a read command’s reply holds', async () => {
    expect(
      await redisChecker.check(target({ command: ['GET', 'health'], expectValue: 'ok' }), testContext()),
    ).toMatchObject({ status: 'up' })
    const rows = await redisChecker.check(
      target({ command: ['LRANGE', 'queue', '0', '-1'], expectRows: { count: 3 }, expectValue: 'a' }),
      testContext(),
    )
    expect(rows).toMatchObject({ status: 'up' })
  })

  it('fails the assertions with expected and actual', async () => {
    expect(
      await redisChecker.check(target({ command: ['LLEN', 'queue'], expectValue: '10' }), testContext()),
    ).toMatchObject({ status: 'down', errorKind: 'assertion_failed', error: 'expected value "10", got "3"' })
    expect(
      await redisChecker.check(
        target({ command: ['GET', 'missing'], expectRows: { count: 1, comparison: '>=' } }),
        testContext(),
      ),
    ).toMatchObject({ status: 'down', errorKind: 'assertion_failed', error: 'expected rows >= 1, got 0' })
  })

  it('reports an error reply as query_failed', async () => {
    const outcome = await redisChecker.check(target({ command: ['LLEN', 'health'] }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'query_failed' })
    expect(outcome.error).toMatch(/WRONGTYPE/)
  })

  it('refuses a writing command even when it reaches the checker', async () => {
    const outcome = await redisChecker.check(target({ command: ['DEL', 'health'] }), testContext())
    expect(outcome).toMatchObject({ status: 'down' })
    expect(outcome.error).toMatch(/not a read-only command/)
    expect(
      await redisChecker.check(target({ command: ['GET', 'health'], expectValue: 'ok' }), testContext()),
    ).toMatchObject({ status: 'up' })
  })

  it('reports a wrong password as auth_failed, without the password', async () => {
    const wrong = 'not-the-redis-password-19'
    const outcome = await redisChecker.check(target({ secrets: { password: wrong } }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
    expect(JSON.stringify(outcome)).not.toContain(wrong)
  })

  it('reports a missing password as auth_failed', async () => {
    const outcome = await redisChecker.check(target({ secrets: {} }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'auth_failed' })
  })

  it('speaks TLS: a self-signed certificate fails unless its errors are ignored', async () => {
    const tls = { port: redis.tlsPort, tls: true }
    expect(await redisChecker.check(target(tls), testContext())).toMatchObject({
      status: 'down',
      errorKind: 'tls_invalid',
    })
    expect(await redisChecker.check(target({ ...tls, ignoreTlsErrors: true }), testContext())).toMatchObject({
      status: 'up',
    })
  })

  it('reports a closed port as connect_refused', async () => {
    const outcome = await redisChecker.check(target({ port: await closedPort() }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'connect_refused' })
  })

  it('refuses 127.0.0.1 without the private-targets flag', async () => {
    const outcome = await redisChecker.check(target(), testContext(1000, false))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'refused_private_target' })
  })

  it('ends a check against a silent server at its timeout', async () => {
    const tarpit = await startTarpit()
    try {
      const started = performance.now()
      const outcome = await redisChecker.check(target({ port: tarpit.port }), testContext(300))
      expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout' })
      expect(performance.now() - started).toBeLessThan(1000)
    } finally {
      await tarpit.close()
    }
  })
})
