import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { HttpTarget, MonitorTarget } from '@guard/shared'
import { generate } from 'selfsigned'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { CheckOutcome } from '../checker.ts'
import { checkOnThisThread } from '../checkers/index.ts'
import { closedPort, closeServer, listenLocal, startTarpit } from '../testing/fixtures.ts'
import { CheckPool } from './pool.ts'

const route = (request: IncomingMessage, response: ServerResponse) => {
  const delay = request.url === '/slow' ? 300 : 0
  setTimeout(() => {
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.end('ok')
  }, delay)
}

const notAfter = new Date('2031-03-04T05:06:07.000Z')
let https: ReturnType<typeof createHttpsServer>
let http: ReturnType<typeof createHttpServer>
let httpsBase: string
let httpBase: string
/** TLS connections the HTTPS fixture accepted: one per check when every check opens its own. */
let tlsConnections = 0
let tarpit: Awaited<ReturnType<typeof startTarpit>>

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: 'guard-fixture' }], {
    keyType: 'ec',
    notBeforeDate: new Date('2025-01-01T00:00:00.000Z'),
    notAfterDate: notAfter,
    algorithm: 'sha256',
  })
  https = createHttpsServer({ key: pems.private, cert: pems.cert }, route)
  https.on('secureConnection', () => {
    tlsConnections += 1
  })
  http = createHttpServer(route)
  httpsBase = `https://127.0.0.1:${await listenLocal(https)}`
  httpBase = `http://127.0.0.1:${await listenLocal(http)}`
  tarpit = await startTarpit()
})
afterAll(async () => {
  await closeServer(https)
  await closeServer(http)
  await tarpit.close()
})

const pools: CheckPool[] = []
const newPool = (threads: number) => {
  const pool = new CheckPool({ threads })
  pools.push(pool)
  return pool
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()))
})

const httpTarget = (url: string, extra: Partial<HttpTarget> = {}): MonitorTarget => ({
  kind: 'http',
  url,
  method: 'GET',
  ...extra,
})
const options = (timeoutMs = 3000) => ({ timeoutMs, allowPrivate: true })

/** OpenSSL names the thread in its messages: the rest must match. */
const comparable = (outcome: CheckOutcome) => ({
  errorKind: outcome.errorKind,
  error: outcome.error?.replace(/\b[0-9A-F]{8,16}:error:/, 'thread:error:'),
})

/** Waits until `check` holds: checks are in flight on a running thread. */
async function untilInFlight(pool: CheckPool, check: () => boolean) {
  for (let attempt = 0; attempt < 200 && !check(); attempt++) await new Promise((resolve) => setTimeout(resolve, 25))
  expect(check()).toBe(true)
  expect(pool.running).toBeGreaterThan(0)
}

describe('CheckPool', () => {
  it('runs HTTPS checks on worker threads with every timing phase and the certificate, one connection each', async () => {
    const pool = newPool(2)
    const before = tlsConnections
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => pool.run(httpTarget(`${httpsBase}/`, { ignoreTlsErrors: true }), options())),
    )
    expect(pool.running).toBe(2)
    expect(tlsConnections - before).toBe(6)
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({
        status: 'up',
        statusCode: 200,
        address: '127.0.0.1',
        certificate: {
          valid: false,
          expiresAt: notAfter.toISOString(),
          validFrom: '2025-01-01T00:00:00.000Z',
          subject: 'CN=guard-fixture',
          issuer: 'CN=guard-fixture',
          fingerprint256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
        },
      })
      expect(Object.keys(outcome.phases ?? {}).sort()).toEqual([
        'connectMs',
        'dnsMs',
        'firstByteMs',
        'tlsMs',
        'transferMs',
      ])
      expect(outcome.phases?.tlsMs).toBeGreaterThan(0)
    }
    const here = await checkOnThisThread(httpTarget(`${httpsBase}/`, { ignoreTlsErrors: true }), options())
    expect(Object.keys(outcomes[0] ?? {}).sort()).toEqual(Object.keys(here).sort())
  })

  it('starts threads only as TLS checks need them, and keeps plain HTTP on the calling thread', async () => {
    const pool = newPool(2)
    expect(pool.running).toBe(0)
    await pool.run(httpTarget(`${httpBase}/`), options())
    expect(pool.running).toBe(0)
    await pool.run(httpTarget(`${httpsBase}/`, { ignoreTlsErrors: true }), options())
    await pool.run(httpTarget(`${httpsBase}/`, { ignoreTlsErrors: true }), options())
    expect(pool.running).toBe(1)
  })

  it('classifies refused connections, TLS failures and timeouts exactly as on the main thread', async () => {
    const pool = newPool(2)
    const refused = await closedPort()
    const cases: [MonitorTarget, number][] = [
      [httpTarget(`https://127.0.0.1:${refused}/`), 3000],
      [{ kind: 'tls', host: '127.0.0.1', port: refused }, 3000],
      // An untrusted certificate, and a TLS handshake with a server that speaks plain HTTP.
      [httpTarget(`${httpsBase}/`), 3000],
      [httpTarget(`https://${httpBase.slice('http://'.length)}/`), 3000],
      [{ kind: 'tls', host: '127.0.0.1', port: Number(new URL(httpBase).port) }, 3000],
      [httpTarget(`https://127.0.0.1:${tarpit.port}/`), 300],
      [{ kind: 'tls', host: '127.0.0.1', port: tarpit.port }, 300],
    ]
    for (const [target, timeoutMs] of cases) {
      const [pooled, here] = await Promise.all([
        pool.run(target, options(timeoutMs)),
        checkOnThisThread(target, options(timeoutMs)),
      ])
      expect(pooled.status).toBe('down')
      expect(comparable(pooled)).toEqual(comparable(here))
    }
    expect(pool.running).toBeGreaterThan(0)
  })

  it('reports the checks of a thread that crashes as down, and replaces the thread', async () => {
    const pool = newPool(1)
    const hanging = Array.from({ length: 3 }, () =>
      pool.run(httpTarget(`https://127.0.0.1:${tarpit.port}/`), options(10_000)),
    )
    await untilInFlight(pool, () => tarpit.mostOpen() >= 3)
    // A message the check thread cannot handle makes it throw outside any check: a real crash.
    pool.workers()[0]?.postMessage({ id: -1, target: null })
    const outcomes = await Promise.all(hanging)
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({
        status: 'down',
        errorKind: 'unknown',
        error: expect.stringMatching(/^the check thread stopped \(.+\) before the check finished$/),
      })
      expect(outcome.responseTimeMs).toBeLessThan(10_000)
    }
    expect(await pool.run(httpTarget(`${httpsBase}/`, { ignoreTlsErrors: true }), options())).toMatchObject({
      status: 'up',
    })
    expect(pool.running).toBe(1)
  })

  it('falls back to the main thread when threads keep crashing', async () => {
    const pool = newPool(1)
    for (let crash = 0; crash < 3; crash++) {
      const check = pool.run(httpTarget(`https://127.0.0.1:${tarpit.port}/`), options(10_000))
      // Queued behind the check, so the thread dies with the check in its hands.
      pool.workers()[0]?.postMessage({ id: -1, target: null })
      expect(await check).toMatchObject({ status: 'down', errorKind: 'unknown' })
    }
    expect(await pool.run(httpTarget(`${httpBase}/`), options())).toMatchObject({ status: 'up' })
    expect(pool.running).toBe(0)
  })

  it('reports checks down and then runs them on the main thread when threads die as they start', async () => {
    const pool = new CheckPool({ threads: 2, workerSource: () => 'throw new Error("broken bundle")' })
    pools.push(pool)
    const secure = httpTarget(`${httpsBase}/`, { ignoreTlsErrors: true })
    const first = await Promise.all(Array.from({ length: 3 }, () => pool.run(secure, options())))
    for (const outcome of first) {
      expect(outcome).toMatchObject({
        status: 'down',
        errorKind: 'unknown',
        error: 'the check thread stopped (broken bundle) before the check finished',
      })
    }
    // Two threads died with those three checks; the third to die makes the pool give up on threads.
    expect(await pool.run(secure, options())).toMatchObject({ status: 'down', errorKind: 'unknown' })
    expect(await pool.run(secure, options())).toMatchObject({ status: 'up' })
    expect(pool.running).toBe(0)
  })

  it('runs checks on the main thread when no thread can be built', async () => {
    const pool = new CheckPool({
      threads: 2,
      workerSource: () => {
        throw new Error('esbuild is missing')
      },
    })
    pools.push(pool)
    expect(await pool.run(httpTarget(`${httpsBase}/`, { ignoreTlsErrors: true }), options())).toMatchObject({
      status: 'up',
      phases: { tlsMs: expect.any(Number) },
    })
    expect(pool.running).toBe(0)
  })

  it('drains the checks in flight on close, then ends its threads', async () => {
    const pool = newPool(2)
    const inFlight = Array.from({ length: 4 }, () =>
      pool.run(httpTarget(`${httpsBase}/slow`, { ignoreTlsErrors: true }), options()),
    )
    await untilInFlight(pool, () => pool.running > 0)
    await pool.close()
    expect(pool.running).toBe(0)
    for (const outcome of await Promise.all(inFlight)) expect(outcome).toMatchObject({ status: 'up', statusCode: 200 })
    // A check that arrives late still runs, on the calling thread.
    expect(await pool.run(httpTarget(`${httpBase}/`), options())).toMatchObject({ status: 'up' })
    expect(pool.running).toBe(0)
  })

  it('runs every check on the calling thread with 0 threads', async () => {
    const pool = newPool(0)
    expect(await pool.run(httpTarget(`${httpsBase}/`, { ignoreTlsErrors: true }), options())).toMatchObject({
      status: 'up',
      phases: { tlsMs: expect.any(Number) },
    })
    expect(pool.running).toBe(0)
  })
})
