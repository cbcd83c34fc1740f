import type { MonitorConfig } from '@guard/shared'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Scheduler } from './scheduler.ts'

const monitor = (id: string, intervalSeconds = 10): MonitorConfig => ({
  v: 1,
  id,
  organizationId: 'org',
  target: { kind: 'http', url: 'http://127.0.0.1/', method: 'GET' },
  intervalSeconds,
  timeoutSeconds: 5,
  locations: ['*'],
  enabled: true,
})

describe('Scheduler', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('spreads first runs over the interval with a random offset', async () => {
    vi.useFakeTimers({ now: 0 })
    const starts: Record<string, number> = {}
    const offsets = [0.1, 0.5, 0.9]
    const scheduler = new Scheduler({
      concurrency: 10,
      random: () => offsets.shift() ?? 0,
      run: async (config) => {
        starts[config.id] = Date.now()
      },
    })
    for (const id of ['a', 'b', 'c']) scheduler.upsert(monitor(id))
    await vi.advanceTimersByTimeAsync(10_000)
    expect(starts).toEqual({ a: 1000, b: 5000, c: 9000 })
    await scheduler.stop()
  })

  it('spreads monitors added together across the whole interval with the real random source', async () => {
    vi.useFakeTimers({ now: 0 })
    const firstStart = new Map<string, number>()
    const scheduler = new Scheduler({
      concurrency: 1000,
      run: async (config) => {
        if (!firstStart.has(config.id)) firstStart.set(config.id, Date.now())
      },
    })
    for (let index = 0; index < 200; index++) scheduler.upsert(monitor(`m${index}`, 10))
    await vi.advanceTimersByTimeAsync(10_000)
    const perSecond = Array.from({ length: 10 }, (_, second) =>
      [...firstStart.values()].filter((at) => Math.floor(at / 1000) === second),
    ).map((starts) => starts.length)
    expect(firstStart.size).toBe(200)
    // Uniform would be 20 a second; no second may hold a burst, none may stay empty.
    expect(Math.max(...perSecond)).toBeLessThan(50)
    expect(Math.min(...perSecond)).toBeGreaterThan(0)
    await scheduler.stop()
  })

  it('runs each monitor once per interval after the first run', async () => {
    vi.useFakeTimers({ now: 0 })
    let runs = 0
    const scheduler = new Scheduler({
      concurrency: 10,
      random: () => 0,
      run: async () => {
        runs += 1
      },
    })
    scheduler.upsert(monitor('a', 5))
    await vi.advanceTimersByTimeAsync(20_000)
    expect(runs).toBe(5)
    await scheduler.stop()
  })

  it('never overlaps a monitor with itself when a run outlasts the interval', async () => {
    vi.useFakeTimers({ now: 0 })
    let active = 0
    let maxActive = 0
    let runs = 0
    const scheduler = new Scheduler({
      concurrency: 10,
      random: () => 0,
      run: async () => {
        active += 1
        runs += 1
        maxActive = Math.max(maxActive, active)
        await new Promise((resolve) => setTimeout(resolve, 12_000))
        active -= 1
      },
    })
    scheduler.upsert(monitor('slow', 5))
    await vi.advanceTimersByTimeAsync(29_000)
    expect(maxActive).toBe(1)
    // Started at 0 and 15 000; the runs due at 5 000, 10 000, 20 000 and 25 000 found one going.
    expect(runs).toBe(2)
    await vi.advanceTimersByTimeAsync(14_000)
    await scheduler.stop()
  })

  it('bounds how many checks run at once', async () => {
    vi.useFakeTimers({ now: 0 })
    let active = 0
    let maxActive = 0
    const scheduler = new Scheduler({
      concurrency: 2,
      random: () => 0,
      run: async () => {
        active += 1
        maxActive = Math.max(maxActive, active)
        await new Promise((resolve) => setTimeout(resolve, 1000))
        active -= 1
      },
    })
    for (const id of ['a', 'b', 'c', 'd', 'e']) scheduler.upsert(monitor(id))
    await vi.advanceTimersByTimeAsync(5000)
    expect(maxActive).toBe(2)
    await scheduler.stop()
  })

  it('stops running a removed monitor and follows a changed interval', async () => {
    vi.useFakeTimers({ now: 0 })
    const runs: Record<string, number> = {}
    const scheduler = new Scheduler({
      concurrency: 10,
      random: () => 0,
      run: async (config) => {
        runs[config.id] = (runs[config.id] ?? 0) + 1
      },
    })
    scheduler.upsert(monitor('gone', 5))
    scheduler.upsert(monitor('faster', 10))
    await vi.advanceTimersByTimeAsync(1)
    scheduler.remove('gone')
    scheduler.upsert(monitor('faster', 5))
    await vi.advanceTimersByTimeAsync(19_000)
    expect(runs.gone).toBe(1)
    expect(runs.faster).toBe(5)
    await scheduler.stop()
  })

  it('checks a new or edited monitor at once when asked, then keeps its jittered cadence', async () => {
    vi.useFakeTimers({ now: 0 })
    const starts: number[] = []
    const scheduler = new Scheduler({
      concurrency: 10,
      random: () => 0.5,
      run: async () => {
        starts.push(Date.now())
      },
    })
    scheduler.upsert(monitor('a', 10), { checkNow: true })
    await vi.advanceTimersByTimeAsync(12_000)
    expect(starts).toEqual([0, 5000])
    // The same check published again (a collector restart) is no edit; a new timeout is.
    scheduler.upsert(monitor('a', 10), { checkNow: true })
    await vi.advanceTimersByTimeAsync(1000)
    scheduler.upsert({ ...monitor('a', 10), timeoutSeconds: 3 }, { checkNow: true })
    await vi.advanceTimersByTimeAsync(5000)
    expect(starts).toEqual([0, 5000, 13_000, 15_000])
    await scheduler.stop()
  })

  it('keeps a check still running after its interval changes, and runs the monitor again', async () => {
    vi.useFakeTimers({ now: 0 })
    let runs = 0
    const scheduler = new Scheduler({
      concurrency: 10,
      random: () => 0,
      run: async () => {
        runs += 1
        await new Promise((resolve) => setTimeout(resolve, 2000))
      },
    })
    scheduler.upsert(monitor('a', 10))
    await vi.advanceTimersByTimeAsync(1000)
    scheduler.upsert(monitor('a', 5), { checkNow: true })
    await vi.advanceTimersByTimeAsync(12_000)
    // The edit found the first run going, so neither it nor the slot due then overlapped it.
    expect(runs).toBe(3)
    await vi.advanceTimersByTimeAsync(2000)
    await scheduler.stop()
  })

  it('measures schedule lag as actual start minus planned start', async () => {
    vi.useFakeTimers({ now: 0 })
    const lags: number[] = []
    const scheduler = new Scheduler({
      concurrency: 1,
      random: () => 0,
      onLag: (lag) => lags.push(lag),
      run: async () => {
        await new Promise((resolve) => setTimeout(resolve, 2000))
      },
    })
    scheduler.upsert(monitor('a'))
    scheduler.upsert(monitor('b'))
    await vi.advanceTimersByTimeAsync(3000)
    expect(lags).toEqual([0, 2000])
    await vi.advanceTimersByTimeAsync(2000)
    await scheduler.stop()
  })
})
