import type { MonitorConfig } from '@guard/shared'
import type { CheckOutcome } from './checker.ts'

/**
 * The monitor's response-time thresholds, for every kind of check: slower than `downAboveMs` is
 * `down`, slower than `degradedAboveMs` turns an `up` into `degraded`, both as `slow`. A check that
 * already failed keeps its own reason; one a checker marked degraded (HTTP's own threshold, an
 * expiring certificate) still goes down when it is slower than `downAboveMs`.
 */
export function applyThresholds(
  outcome: CheckOutcome,
  { degradedAboveMs, downAboveMs }: Pick<MonitorConfig, 'degradedAboveMs' | 'downAboveMs'>,
): CheckOutcome {
  const ms = outcome.responseTimeMs
  if (outcome.status !== 'down' && downAboveMs !== undefined && ms > downAboveMs) {
    return { ...outcome, status: 'down', errorKind: 'slow', error: `responded in ${ms} ms, above ${downAboveMs} ms` }
  }
  if (outcome.status === 'up' && degradedAboveMs !== undefined && ms > degradedAboveMs) {
    return {
      ...outcome,
      status: 'degraded',
      errorKind: 'slow',
      error: `responded in ${ms} ms, above ${degradedAboveMs} ms`,
    }
  }
  return outcome
}
