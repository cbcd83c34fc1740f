import type { CheckResult, MonitorTarget } from '@guard/shared'

/** What a checker measures; the scheduler adds identity, location and time. */
export type CheckOutcome = Pick<
  CheckResult,
  | 'status'
  | 'responseTimeMs'
  | 'statusCode'
  | 'error'
  | 'errorKind'
  | 'phases'
  | 'certificate'
  | 'address'
  | 'answers'
  | 'packetLossPercent'
  | 'details'
>

export interface CheckContext {
  timeoutMs: number
  /** Aborts when the check's timeout has passed; every network step listens to it. */
  signal: AbortSignal
  /** GUARD_ALLOW_PRIVATE_TARGETS: whether the target guard lets private addresses through. */
  allowPrivate: boolean
}

/** One implementation per check type, each in its own folder under checkers/. */
export interface Checker<Kind extends MonitorTarget['kind'] = MonitorTarget['kind']> {
  readonly kind: Kind
  /** Never throws: a failure is an outcome with status `down` and an error text. */
  check(target: Extract<MonitorTarget, { kind: Kind }>, context: CheckContext): Promise<CheckOutcome>
}

/** What a check needs besides its target; the signal is made where the check runs. */
export interface CheckOptions {
  timeoutMs: number
  allowPrivate: boolean
}

/** Checks a target somewhere: on this thread, or on a worker thread of the check pool. */
export type TargetCheck = (target: MonitorTarget, options: CheckOptions) => Promise<CheckOutcome>
