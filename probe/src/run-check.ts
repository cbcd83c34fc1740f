import { type CheckResult, type MonitorConfig, newId } from '@guard/shared'
import { checkTarget } from './checkers/index.ts'

/**
 * Runs one monitor's check within its timeout and stamps the result with its identity, location
 * and start time, read from `now` (the host clock; the fault tests give a skewed one).
 */
export async function runCheck(
  monitor: MonitorConfig,
  location: string,
  allowPrivate: boolean,
  now: () => number = Date.now,
): Promise<CheckResult> {
  const startedAt = new Date(now()).toISOString()
  const timeoutMs = monitor.timeoutSeconds * 1000
  const outcome = await checkTarget(monitor.target, { timeoutMs, signal: AbortSignal.timeout(timeoutMs), allowPrivate })
  return {
    v: 1,
    id: newId(),
    monitorId: monitor.id,
    organizationId: monitor.organizationId,
    location,
    kind: monitor.target.kind,
    startedAt,
    ...outcome,
  }
}
