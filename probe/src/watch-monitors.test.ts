import {
  createInProcessBus,
  createLogger,
  encodeMonitorConfig,
  MONITORS_BUCKET,
  type MonitorConfig,
  type Stoppable,
} from '@guard/shared'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Scheduler } from './scheduler.ts'
import { watchMonitors } from './watch-monitors.ts'

const log = createLogger({ name: 'watch-monitors-test', level: 'silent' })

const monitor = (id: string): MonitorConfig => ({
  v: 1,
  id,
  organizationId: 'org',
  target: { kind: 'http', url: `http://127.0.0.1/${id}`, method: 'GET' },
  intervalSeconds: 60,
  timeoutSeconds: 5,
  locations: ['*'],
  enabled: true,
})

describe('watchMonitors', () => {
  const cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step()
    vi.useRealTimers()
  })

  async function watched(existing: number, browser = false) {
    vi.useFakeTimers({ now: 0 })
    const bus = createInProcessBus({ streams: [] })
    const kv = await bus.kv(MONITORS_BUCKET)
    for (let index = 0; index < existing; index++) await kv.put(`m${index}`, encodeMonitorConfig(monitor(`m${index}`)))
    const firstRun = new Map<string, number>()
    const scheduler = new Scheduler({
      concurrency: 1000,
      run: async (config) => {
        if (!firstRun.has(config.id)) firstRun.set(config.id, Date.now())
      },
    })
    const watch: Stoppable = await watchMonitors(kv, 'fra', scheduler, log, () => {}, browser)
    cleanup.push(
      () => bus.close(),
      () => scheduler.stop(),
      () => watch.stop(),
    )
    await vi.advanceTimersByTimeAsync(10)
    return { kv, firstRun }
  }

  it('checks a monitor added after the catch-up within a second, not an interval later', async () => {
    const { kv, firstRun } = await watched(0)
    const addedAt = Date.now()
    await kv.put('new', encodeMonitorConfig(monitor('new')))
    await vi.advanceTimersByTimeAsync(1000)
    expect(firstRun.get('new')! - addedAt).toBeLessThan(1000)
  })

  it('spreads the monitors replayed at start over their interval instead of checking them all at once', async () => {
    const { firstRun } = await watched(120)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(firstRun.size).toBe(120)
    const perTenSeconds = Array.from(
      { length: 6 },
      (_, slot) => [...firstRun.values()].filter((at) => Math.floor(at / 10_000) === slot).length,
    )
    // Uniform would be 20 a slot; a stampede would put all 120 in the first.
    expect(Math.max(...perTenSeconds)).toBeLessThan(45)
    expect(Math.min(...perTenSeconds)).toBeGreaterThan(0)
  })

  it('gives browser checks only to a probe with a browser', async () => {
    const browserCheck: MonitorConfig = {
      ...monitor('journey'),
      target: { kind: 'browser', script: "test('t', async () => {})" },
    }
    for (const browser of [false, true]) {
      const { kv, firstRun } = await watched(0, browser)
      await kv.put('journey', encodeMonitorConfig(browserCheck))
      await kv.put('plain', encodeMonitorConfig(monitor('plain')))
      await vi.advanceTimersByTimeAsync(1000)
      expect([...firstRun.keys()].sort()).toEqual(browser ? ['journey', 'plain'] : ['plain'])
      for (const step of cleanup.splice(0).reverse()) await step()
    }
  })
})
