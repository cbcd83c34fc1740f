import {
  type CheckResult,
  CredentialsUnavailableError,
  type MonitorConfig,
  type MonitorTarget,
  newId,
  openTargetAuth,
} from '@guard/shared'
import type { CheckOutcome } from './checker.ts'
import { checkTarget } from './checkers/index.ts'

/** The target with sealed credentials opened, or why it cannot be checked. */
function openTarget(target: MonitorTarget, credentialsKey: Buffer | undefined): MonitorTarget | CheckOutcome {
  if (target.kind !== 'http') return target
  try {
    return openTargetAuth(target, credentialsKey)
  } catch (error) {
    if (!(error instanceof CredentialsUnavailableError)) throw error
    return { status: 'down', responseTimeMs: 0, error: error.message, errorKind: 'credentials_unavailable' }
  }
}

/**
 * Runs one monitor's check within its timeout and stamps the result with its identity, location and
 * start time, read from `now` (the host clock; the fault tests give a skewed one). `credentialsKey`
 * (GUARD_PROBE_CREDENTIALS_KEY) opens credentials the collector sealed.
 */
export async function runCheck(
  monitor: MonitorConfig,
  location: string,
  allowPrivate: boolean,
  credentialsKey?: Buffer,
  now: () => number = Date.now,
): Promise<CheckResult> {
  const startedAt = new Date(now()).toISOString()
  const timeoutMs = monitor.timeoutSeconds * 1000
  const target = openTarget(monitor.target, credentialsKey)
  const outcome =
    'kind' in target
      ? await checkTarget(target, { timeoutMs, signal: AbortSignal.timeout(timeoutMs), allowPrivate })
      : target
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
