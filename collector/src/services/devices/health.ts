import type { AgentMetrics, DeviceHealth } from '@guard/shared'
import type { Thresholds } from './schemas.ts'

export const HEALTH_METRICS = ['cpu', 'memory', 'disk'] as const
export type HealthMetric = (typeof HEALTH_METRICS)[number]

export interface HealthReason {
  metric: HealthMetric
  value: number
  threshold: number
  level: 'warning' | 'critical'
}

const rank: Record<DeviceHealth, number> = { healthy: 0, warning: 1, critical: 2 }
const worst = (levels: DeviceHealth[]) =>
  levels.reduce<DeviceHealth>((found, level) => (rank[level] > rank[found] ? level : found), 'healthy')

/** Seconds a metric's new level must hold before the device's health follows it, when a device names none. */
export const DEFAULT_HOLD_SECONDS = 300

/**
 * Where one metric stands: the level it has held, and since when (epoch ms) the samples have stayed
 * at or over, and under, each threshold without a break. A run is null once a sample leaves it.
 */
export interface MetricHold {
  level: DeviceHealth
  over: { warning: number | null; critical: number | null }
  under: { warning: number | null; critical: number | null }
}
export type HealthHold = Record<HealthMetric, MetricHold>

/** What a metric is taken to hold before its first sample under this rule: the device's stored health. */
export const startingHold = (status: DeviceHealth): MetricHold => ({
  level: status,
  over: { warning: null, critical: null },
  under: { warning: null, critical: null },
})

const run = (start: number | null, inside: boolean, at: number) => (inside ? (start ?? at) : null)

/**
 * One metric after one more sample. A busy machine crosses a threshold for seconds all the time, so
 * a level counts only once every sample for `holdSeconds` was on its side: going up, the highest
 * threshold the samples stayed at or over that long; coming down, the lowest level they stayed
 * under the next threshold of that long. `restart` drops the runs (a gap in the heartbeats: time
 * nobody watched cannot count as held).
 */
export function holdMetric(
  state: MetricHold,
  value: number,
  at: number,
  limits: Thresholds[HealthMetric],
  restart = false,
): MetricHold {
  const from = restart ? startingHold(state.level) : state
  const over = {
    warning: run(from.over.warning, value >= limits.warning, at),
    critical: run(from.over.critical, value >= limits.critical, at),
  }
  const under = {
    warning: run(from.under.warning, value < limits.warning, at),
    critical: run(from.under.critical, value < limits.critical, at),
  }
  const held = (since: number | null) => since !== null && at - since >= limits.holdSeconds * 1000
  const up: DeviceHealth = held(over.critical) ? 'critical' : held(over.warning) ? 'warning' : 'healthy'
  const down: DeviceHealth = held(under.warning) ? 'healthy' : held(under.critical) ? 'warning' : 'critical'
  const level = rank[up] > rank[state.level] ? up : rank[down] < rank[state.level] ? down : state.level
  return { level, over, under }
}

/**
 * The device after one heartbeat: each metric held on its own (with its own hold), the device's
 * health the worst of them. `reasons` name the metrics not healthy, with this heartbeat's values.
 */
export function holdHealth(
  hold: HealthHold,
  metrics: AgentMetrics,
  at: string,
  thresholds: Thresholds,
  restart = false,
): { hold: HealthHold; status: DeviceHealth; reasons: HealthReason[] } {
  const time = Date.parse(at)
  const next = Object.fromEntries(
    HEALTH_METRICS.map((metric) => [
      metric,
      holdMetric(hold[metric], metrics[metric].usage_percent, time, thresholds[metric], restart),
    ]),
  ) as HealthHold
  const reasons = HEALTH_METRICS.flatMap((metric): HealthReason[] => {
    const level = next[metric].level
    if (level === 'healthy') return []
    return [{ metric, value: metrics[metric].usage_percent, threshold: thresholds[metric][level], level }]
  })
  return { hold: next, status: worst(HEALTH_METRICS.map((metric) => next[metric].level)), reasons }
}
