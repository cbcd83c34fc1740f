import { type CheckResult, type MonitorConfig, newId } from '@guard/shared'
import { checkTarget } from './checkers/index.ts'

/** Runs one monitor's check within its timeout and stamps the result with its identity, location and start time. */
export async function runCheck(monitor: MonitorConfig, location: string, allowPrivate: boolean): Promise<CheckResult> {
  const startedAt = new Date().toISOString()
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
