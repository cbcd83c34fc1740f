import { createServer } from 'node:http'
import type { MonitorConfig } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LagWindow } from './lag-window.ts'
import { FairLimiter } from './limiter.ts'
import { runCheck } from './run-check.ts'
import { Scheduler } from './scheduler.ts'
import { closeServer, listenLocal, startTarpit } from './testing/fixtures.ts'

const httpMonitor = (
  id: string,
  organizationId: string,
  url: string,
  intervalSeconds: number,
  timeoutSeconds: number,
): MonitorConfig => ({
  v: 1,
  id,
  organizationId,
  target: { kind: 'http', url, method: 'GET' },
  intervalSeconds,
  timeoutSeconds,
  locations: ['*'],
  enabled: true,
})

const never = () => new Promise<void>(() => {})

describe('FairLimiter', () => {
  it('lets one tenant hold at most its share while another tenant is scheduled, all of it when alone', async () => {
    let tenants = 1
    const limiter = new FairLimiter(10, () => tenants)
    for (let n = 0; n < 30; n++) void limiter.run('a', never)
    await Promise.resolve()
    expect(limiter.inFlightOf('a')).toBe(10)

    tenants = 2
    const second = new FairLimiter(10, () => tenants)
    for (let n = 0; n < 30; n++) void second.run('a', never)
    let ran = 0
    for (let n = 0; n < 3; n++) {
      await second.run('b', async () => {
        ran += 1
      })
    }
    expect(second.inFlightOf('a')).toBe(5)
    expect(ran).toBe(3)
  })

  it('hands freed slots round robin when there are more tenants than slots', async () => {
    const limiter = new FairLimiter(1, () => 3)
    const order: string[] = []
    let release: () => void = () => {}
    const first = limiter.run('a', () => new Promise<void>((resolve) => (release = resolve)))
    const runs = ['a', 'a', 'a', 'b', 'c'].map((tenant) => limiter.run(tenant, async () => void order.push(tenant)))
    release()
    await Promise.all([first, ...runs])
    expect(order).toEqual(['a', 'b', 'c', 'a', 'a'])
  })
})

/**
 * 300 monitors of one organization point at tarpits (connections accepted, never answered), so
 * each check hangs for its whole 25 s timeout; 5 monitors of another organization check a
 * healthy local server every 5 s. With the concurrency shared per organization, the tarpits
 * hold at most half of the 20 slots and the healthy checks start on time.
 */
describe('fair scheduling across organizations', () => {
  const CONCURRENCY = 20
  const RUN_MS = 16_000
  let tarpits: Awaited<ReturnType<typeof startTarpit>>[]
  const healthy = createServer((_request, response) => response.end('ok'))
  let healthyUrl: string

  beforeAll(async () => {
    tarpits = await Promise.all([startTarpit(), startTarpit(), startTarpit()])
    healthyUrl = `http://127.0.0.1:${await listenLocal(healthy)}/`
  })
  afterAll(async () => {
    await Promise.all(tarpits.map((tarpit) => tarpit.close()))
    await closeServer(healthy)
  })

  it('a tenant with 300 tarpit monitors does not delay another tenant’s 5-second checks (lag p99 < 1 s)', async () => {
    const lags = new LagWindow()
    let healthyChecks = 0
    let tarpitStarts = 0
    const scheduler = new Scheduler({
      concurrency: CONCURRENCY,
      run: async (monitor) => {
        const result = await runCheck(monitor, 'local', true)
        if (monitor.organizationId === 'org-healthy' && result.status === 'up') healthyChecks += 1
      },
      onLag: (lagMs, monitor) => {
        if (monitor.organizationId === 'org-healthy') lags.add(lagMs)
        else tarpitStarts += 1
      },
    })
    for (let n = 0; n < 300; n++) {
      const tarpit = tarpits[n % tarpits.length]!
      scheduler.upsert(httpMonitor(`tarpit-${n}`, 'org-tarpit', `http://127.0.0.1:${tarpit.port}/${n}`, 30, 25))
    }
    for (let n = 0; n < 5; n++) scheduler.upsert(httpMonitor(`healthy-${n}`, 'org-healthy', healthyUrl, 5, 4))

    await new Promise((resolve) => setTimeout(resolve, RUN_MS))
    const openAtOnce = tarpits.reduce((sum, tarpit) => sum + tarpit.mostOpen(), 0)
    const stopping = scheduler.stop()

    // At least 3 rounds of 5 monitors (the first starts at a random point of its interval).
    expect(healthyChecks).toBeGreaterThanOrEqual(12)
    expect(lags.percentile(99)).toBeLessThan(1000)
    // About half of the 300 tarpit checks fell due, but none ends before its 25 s timeout: the
    // tenant filled exactly its half of the slots and the rest waited.
    expect(tarpitStarts).toBe(CONCURRENCY / 2)
    expect(openAtOnce).toBe(CONCURRENCY / 2)
    // The hung checks end at their timeout; do not wait for them here.
    void stopping
  }, 30_000)
})
