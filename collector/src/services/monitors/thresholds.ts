import { GuardError, type MonitorTarget } from '@guard/shared'

interface Thresholds {
  degradedAboveMs?: number | null | undefined
  downAboveMs?: number | null | undefined
  /** Seconds. */
  timeout: number
  target: MonitorTarget
}

/**
 * A 400 for thresholds that could never apply: degraded must come before down, and both before the
 * timeout (a check never lasts longer). HTTP's own `degradedAboveMs` option counts as the degraded
 * threshold of a monitor that sets none.
 */
export function assertThresholds({ degradedAboveMs, downAboveMs, timeout, target }: Thresholds): void {
  const degraded = degradedAboveMs ?? (target.kind === 'http' ? target.degradedAboveMs : undefined)
  const timeoutMs = timeout * 1000
  if (downAboveMs != null && downAboveMs >= timeoutMs) {
    throw new GuardError('VALIDATION_ERROR', `downAboveMs: must be below the timeout (${timeoutMs} ms)`)
  }
  if (degraded != null && degraded >= timeoutMs) {
    throw new GuardError('VALIDATION_ERROR', `degradedAboveMs: must be below the timeout (${timeoutMs} ms)`)
  }
  if (degraded != null && downAboveMs != null && degraded >= downAboveMs) {
    throw new GuardError('VALIDATION_ERROR', `degradedAboveMs: must be below downAboveMs (${downAboveMs} ms)`)
  }
}
