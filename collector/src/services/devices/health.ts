import type { AgentMetrics, DeviceHealth } from '@guard/shared'
import type { Thresholds } from './schemas.ts'

export interface HealthReason {
  metric: 'cpu' | 'memory' | 'disk'
  value: number
  threshold: number
  level: 'warning' | 'critical'
}

const rank: Record<DeviceHealth, number> = { healthy: 0, warning: 1, critical: 2 }

/** The level one heartbeat alone points at: the worst of cpu, memory and disk usage. */
export function healthOfSample(metrics: AgentMetrics, thresholds: Thresholds) {
  const reasons: HealthReason[] = []
  for (const metric of ['cpu', 'memory', 'disk'] as const) {
    const value = metrics[metric].usage_percent
    const limits = thresholds[metric]
    if (value >= limits.critical) reasons.push({ metric, value, threshold: limits.critical, level: 'critical' })
    else if (value >= limits.warning) reasons.push({ metric, value, threshold: limits.warning, level: 'warning' })
  }
  const level = reasons.reduce<DeviceHealth>(
    (worst, reason) => (rank[reason.level] > rank[worst] ? reason.level : worst),
    'healthy',
  )
  return { level, reasons }
}

export interface HealthState {
  status: DeviceHealth
  candidate: DeviceHealth | null
  count: number
}

/** Heartbeats in a row a new level must hold before it becomes the status, so one spike does not flap. */
export const SUSTAINED_HEARTBEATS = 2

/** The state after one more heartbeat pointing at `level`. */
export function sustainHealth(state: HealthState, level: DeviceHealth): HealthState & { changed: boolean } {
  if (level === state.status) return { status: state.status, candidate: null, count: 0, changed: false }
  const count = state.candidate === level ? state.count + 1 : 1
  if (count >= SUSTAINED_HEARTBEATS) return { status: level, candidate: null, count: 0, changed: true }
  return { status: state.status, candidate: level, count, changed: false }
}
