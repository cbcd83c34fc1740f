import type { AgentMetrics, DeviceHealth } from '@guard/shared'
import { describe, expect, it } from 'vitest'
import { type HealthHold, type HealthReason, holdHealth, holdMetric, startingHold } from './health.ts'
import type { Thresholds } from './schemas.ts'

const limits = (holdSeconds = 300) => ({ warning: 80, critical: 90, holdSeconds })
const thresholds = (holdSeconds = 300): Thresholds => ({
  cpu: limits(holdSeconds),
  memory: limits(holdSeconds),
  disk: limits(holdSeconds),
})
const metrics = (cpu: number, memory = 30, disk = 40): AgentMetrics =>
  ({
    cpu: { usage_percent: cpu, cores: 4 },
    memory: { total_gb: 8, used_gb: 2, usage_percent: memory },
    disk: { total_gb: 100, used_gb: 40, usage_percent: disk },
  }) as AgentMetrics

const START = Date.parse('2026-01-01T00:00:00Z')

/**
 * Feeds CPU samples 30 s apart, as an agent at its default interval, and returns every change of
 * the device's health with the second it happened at.
 */
function replay(cpu: number[], hold = 300, from: DeviceHealth = 'healthy') {
  let state: HealthHold = { cpu: startingHold(from), memory: startingHold(from), disk: startingHold(from) }
  let status = from
  const changes: Array<{ second: number; from: DeviceHealth; to: DeviceHealth; reasons: HealthReason[] }> = []
  cpu.forEach((value, index) => {
    const at = new Date(START + index * 30_000).toISOString()
    const next = holdHealth(state, metrics(value), at, thresholds(hold))
    if (next.status !== status)
      changes.push({ second: index * 30, from: status, to: next.status, reasons: next.reasons })
    state = next.hold
    status = next.status
  })
  return { changes, status }
}

const repeat = (value: number, times: number) => Array.from({ length: times }, () => value)

describe('device health held for a duration', () => {
  it('opens nothing for a spike shorter than the hold, however high', () => {
    // 4.5 minutes at 100 %, then back to 20 %: a busy box, not a sick one.
    expect(replay([...repeat(100, 10), ...repeat(20, 20)]).changes).toEqual([])
  })

  it('turns critical once when the level holds for the whole hold, with the metric as the reason', () => {
    const { changes } = replay([20, ...repeat(95, 15)])
    expect(changes).toEqual([
      {
        second: 330, // first hot sample at 30 s, held for 300 s
        from: 'healthy',
        to: 'critical',
        reasons: [{ metric: 'cpu', value: 95, threshold: 90, level: 'critical' }],
      },
    ])
  })

  it('recovers only after holding below for the hold too; a short dip changes nothing', () => {
    const hot = repeat(95, 11)
    const dip = repeat(20, 4)
    const { changes, status } = replay([...hot, ...dip, ...repeat(95, 2), ...repeat(20, 11)])
    expect(changes.map(({ second, to }) => ({ second, to }))).toEqual([
      { second: 300, to: 'critical' },
      // Back under at 510 s (after the dip and two hot samples), held under until 810 s.
      { second: 810, to: 'healthy' },
    ])
    expect(status).toBe('healthy')
  })

  it('counts a level swinging between warning and critical as held at warning', () => {
    const swinging = Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? 85 : 95))
    expect(replay(swinging).changes.map(({ to }) => to)).toEqual(['warning'])
  })

  it('steps down from critical to warning when usage holds between the two', () => {
    const { changes } = replay([...repeat(95, 11), ...repeat(85, 11)])
    expect(changes.map(({ second, to }) => ({ second, to }))).toEqual([
      { second: 300, to: 'critical' },
      { second: 630, to: 'warning' },
    ])
  })

  it('follows every heartbeat with a hold of 0', () => {
    expect(replay([20, 95, 20]).changes).toHaveLength(0)
    expect(replay([20, 95, 20], 0).changes.map(({ to }) => to)).toEqual(['critical', 'healthy'])
  })

  it('a device critical before the rule stays critical until its metrics hold below', () => {
    const { changes } = replay(repeat(20, 12), 300, 'critical')
    expect(changes.map(({ second, to }) => ({ second, to }))).toEqual([{ second: 300, to: 'healthy' }])
  })

  it('does not let a gap in the heartbeats count as held', () => {
    const limit = limits()
    const first = holdMetric(startingHold('healthy'), 95, START, limit)
    // Ten minutes later, after silence: without the restart this one sample would confirm critical.
    expect(holdMetric(first, 95, START + 600_000, limit).level).toBe('critical')
    const restarted = holdMetric(first, 95, START + 600_000, limit, true)
    expect(restarted.level).toBe('healthy')
    expect(holdMetric(restarted, 95, START + 900_000, limit).level).toBe('critical')
  })

  it('holds each metric with its own hold', () => {
    const own: Thresholds = { ...thresholds(300), disk: limits(0) }
    const state: HealthHold = {
      cpu: startingHold('healthy'),
      memory: startingHold('healthy'),
      disk: startingHold('healthy'),
    }
    const next = holdHealth(state, metrics(95, 30, 95), new Date(START).toISOString(), own)
    expect(next.status).toBe('critical')
    expect(next.reasons.map((reason) => reason.metric)).toEqual(['disk'])
  })
})
