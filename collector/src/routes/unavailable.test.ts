import { dependencyChecks, watchDependencies } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { buildCollectorApp } from '../app.ts'
import { collectorForTest, withOutage } from '../test-support.ts'

describe('collector while PostgreSQL is away', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  let app: Awaited<ReturnType<typeof buildCollectorApp>>
  const outage = { setDown: (_down: boolean) => {} }
  let refresh: () => Promise<unknown>

  beforeAll(async () => {
    harness = await collectorForTest()
    const flaky = withOutage(harness.ctx.sql)
    outage.setDown = flaky.setDown
    const ctx = { ...harness.ctx, sql: flaky.sql }
    const dependencies = await watchDependencies({
      bus: dependencyChecks.bus(ctx.bus),
      relational: dependencyChecks.relational(ctx.sql),
      timeseries: dependencyChecks.timeseries(ctx.timeseries),
    })
    refresh = dependencies.refresh
    app = await buildCollectorApp(ctx, { dependencies })
    app.addHook('onClose', async () => dependencies.stop())
  })
  afterAll(async () => {
    await app.close()
    await harness.close()
  })

  const get = (url: string) =>
    app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${harness.apiKey}` } })

  it('answers 503 with Retry-After and a clear body instead of 500, and 200 again once it is back', async () => {
    expect((await get('/api/domains')).statusCode).toBe(200)
    outage.setDown(true)
    onTestFinished(() => outage.setDown(false))
    for (const url of ['/api/domains', '/api/services', '/api-keys']) {
      const response = await get(url)
      expect(response.statusCode, url).toBe(503)
      expect(response.headers['retry-after'], url).toBe('5')
      expect(response.json(), url).toEqual({
        success: false,
        error: 'SERVICE_UNAVAILABLE',
        message: 'A database Guard depends on is unavailable; retry in 5 seconds.',
      })
    }
    outage.setDown(false)
    expect((await get('/api/domains')).statusCode).toBe(200)
  })

  it('health says which dependency is down, 503 while PostgreSQL is, without details', async () => {
    await refresh()
    const healthy = await app.inject({ method: 'GET', url: '/api/health' })
    expect(healthy.statusCode).toBe(200)
    expect(healthy.json()).toMatchObject({
      status: 'ok',
      checks: { bus: 'up', relational: 'up', timeseries: 'up' },
    })
    outage.setDown(true)
    onTestFinished(() => outage.setDown(false))
    await refresh()
    const down = await app.inject({ method: 'GET', url: '/api/health' })
    expect(down.statusCode).toBe(503)
    expect(down.json()).toMatchObject({
      status: 'unavailable',
      checks: { bus: 'up', relational: 'down', timeseries: 'up' },
    })
    expect(down.body).not.toContain('ECONNREFUSED')
    outage.setDown(false)
    await refresh()
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
  })
})
