import { type CheckResult, type MonitorConfig, newId } from '@guard/shared'
import { httpChecker } from './checkers/http/check.ts'

/** Runs one monitor's check and stamps the result with its identity, location and start time. */
export async function runCheck(monitor: MonitorConfig, location: string): Promise<CheckResult> {
  const startedAt = new Date().toISOString()
  const outcome = await httpChecker.check(monitor.target, { timeoutMs: monitor.timeoutSeconds * 1000 })
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
