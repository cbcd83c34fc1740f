import type { CheckResult, MonitorConfig } from '@guard/shared'

/** What a checker measures; the scheduler adds identity, location and time. */
export type CheckOutcome = Pick<
  CheckResult,
  'status' | 'responseTimeMs' | 'statusCode' | 'error' | 'phases' | 'certificate'
>

/** One implementation per check type, each in its own folder under checkers/. */
export interface Checker<Target = MonitorConfig['target']> {
  readonly kind: CheckResult['kind']
  /** Never throws: a failure is an outcome with status `down` and an error text. */
  check(target: Target, options: { timeoutMs: number; signal?: AbortSignal }): Promise<CheckOutcome>
}
