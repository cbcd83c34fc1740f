import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createLogger } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCollectorApp } from '../collector/src/app.ts'
import { consoleOidc } from '../collector/src/console/identity-client.ts'
import { identityServiceCheck } from '../collector/src/services/identity/service-check.ts'
import { collectorForTest } from '../collector/src/test-support.ts'
import { startTestIdentity, TEST_SECRET_KEY, type TestIdentity } from '../identity/src/oauth/testing.ts'

const log = createLogger({ name: 'identity-health-test', level: 'silent' })

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

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
    expect(await check(`http://127.0.0.1:${await closedPort()}`, TEST_SECRET_KEY)).toBe(false)
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

  it('calls identity at GUARD_IDENTITY_INTERNAL_URL while browsers and tokens use GUARD_IDENTITY_URL', async () => {
    // As in compose: the public address does not answer inside the collector's network.
    const unreachable = `http://127.0.0.1:${await closedPort()}`
    const issuer = identity.ctx.issuer
    identity.ctx.issuer = unreachable
    const harness = await collectorForTest({
      GUARD_IDENTITY_URL: unreachable,
      GUARD_IDENTITY_INTERNAL_URL: identity.url,
      GUARD_SECRET_KEY: TEST_SECRET_KEY,
    })
    const app = await buildCollectorApp(harness.ctx)
    try {
      expect((await app.inject({ method: 'GET', url: '/api/health' })).json().checks.identity).toBe('up')
      expect(await harness.ctx.plans.planOf(identity.organization.id)).toMatchObject({
        organizationId: identity.organization.id,
      })
      const oidc = await consoleOidc({
        sql: harness.ctx.sql,
        log,
        identityUrl: unreachable,
        internalUrl: identity.url,
        secretKey: TEST_SECRET_KEY,
        sealKey: Buffer.alloc(32, 7),
        publicUrl: () => 'http://127.0.0.1:4001',
      })()
      // Registered and discovered through the internal address; the endpoints stay the public ones.
      expect(oidc.config.serverMetadata().authorization_endpoint).toMatch(new RegExp(`^${unreachable}/`))
    } finally {
      identity.ctx.issuer = issuer
      await app.close()
      await harness.close()
    }
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
