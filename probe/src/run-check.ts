import {
  type CheckResult,
  CredentialsUnavailableError,
  type MonitorConfig,
  type MonitorTarget,
  newId,
  openTargetAuth,
  openTargetSecrets,
} from '@guard/shared'
import type { BrowserCheckRun } from './browser/check-browser.ts'
import type { CheckOutcome, TargetCheck } from './checker.ts'
import { checkOnThisThread } from './checkers/index.ts'
import { applyThresholds } from './thresholds.ts'

/** The target with sealed credentials opened, or why it cannot be checked. */
function openTarget(target: MonitorTarget, credentialsKey: Buffer | undefined): MonitorTarget | CheckOutcome {
  try {
    if (target.kind === 'http') return openTargetAuth(target, credentialsKey)
    return openTargetSecrets(target, credentialsKey)
  } catch (error) {
    if (!(error instanceof CredentialsUnavailableError)) throw error
    return { status: 'down', responseTimeMs: 0, error: error.message, errorKind: 'credentials_unavailable' }
  }
}

export interface RunCheckOptions {
  /** GUARD_PROBE_CREDENTIALS_KEY: opens credentials the collector sealed. */
  credentialsKey?: Buffer | undefined
  /** The clock results are stamped with: the host's by default (the fault tests give a skewed one). */
  now?: () => number
  /** Where the check runs: this thread by default, the probe's check pool when it has one. */
  check?: TargetCheck
  /** Runs browser checks on a probe with a browser; without it they fail saying the probe has none. */
  browser?: ((run: BrowserCheckRun) => Promise<CheckOutcome>) | undefined
}

/**
 * Runs one monitor's check within its timeout and stamps the result with its identity, location and
 * start time.
 */
export async function runCheck(
  monitor: MonitorConfig,
  location: string,
  allowPrivate: boolean,
  { credentialsKey, now = Date.now, check = checkOnThisThread, browser }: RunCheckOptions = {},
): Promise<CheckResult> {
  const startedAt = new Date(now()).toISOString()
  const timeoutMs = monitor.timeoutSeconds * 1000
  const id = newId()
  const target = openTarget(monitor.target, credentialsKey)
  const checked = !('kind' in target)
    ? target
    : target.kind === 'browser' && browser
      ? await browser({ monitor, target, resultId: id, timeoutMs })
      : await check(target, { timeoutMs, allowPrivate })
  const outcome = applyThresholds(checked, monitor)
  return {
    v: 1,
    id,
    monitorId: monitor.id,
    organizationId: monitor.organizationId,
    location,
    kind: monitor.target.kind,
    startedAt,
    ...outcome,
  }
}
