import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createLogger } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { identityServiceCheck } from '../collector/src/services/identity/service-check.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { startTestIdentity, TEST_SECRET_KEY, type TestIdentity } from '../identity/src/oauth/testing.ts'

const log = createLogger({ name: 'identity-health-test', level: 'silent' })

describe("the collector's health reports identity as the collector uses it", () => {
  let identity: TestIdentity

  beforeAll(async () => {
    identity = await startTestIdentity({ internal: true })
  })
  afterAll(() => identity?.close())

  it('is up when identity accepts the service token, down when it refuses it or does not answer', async () => {
    const check = (identityUrl: string, secretKey: string) => identityServiceCheck({ identityUrl, secretKey, log })()
    expect(await check(identity.url, TEST_SECRET_KEY)).toBe(true)
    expect(await check(identity.url, 'another-secret-key-another-secret-key')).toBe(false)
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    expect(await check(`http://127.0.0.1:${port}`, TEST_SECRET_KEY)).toBe(false)
  })

  it('asks identity again only once its answer is old', async () => {
    let requests = 0
    let clock = 0
    const server = createServer((_request, response) => {
      requests += 1
      response.writeHead(401).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const check = identityServiceCheck({
      identityUrl: `http://127.0.0.1:${port}`,
      secretKey: TEST_SECRET_KEY,
      log,
      askEveryMs: 1000,
      now: () => clock,
    })
    expect([await check(), await check()]).toEqual([false, false])
    expect(requests).toBe(1)
    clock = 1000
    await check()
    expect(requests).toBe(2)
    await new Promise((resolve) => server.close(resolve))
  })

  it('/api/health is degraded with identity down while identity refuses the collector its GUARD_SECRET_KEY', async () => {
    // collectorForTest's own GUARD_SECRET_KEY is not the test identity's.
    const harness = await collectorForTest({ GUARD_IDENTITY_URL: identity.url })
    const app = await buildCollectorApp(harness.ctx)
    try {
      const response = await app.inject({ method: 'GET', url: '/api/health' })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toMatchObject({
        status: 'degraded',
        checks: { relational: 'up', timeseries: 'up', identity: 'down' },
      })
    } finally {
      await app.close()
      await harness.close()
    }
  })
})
