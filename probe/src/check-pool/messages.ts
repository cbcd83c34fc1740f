import type { CheckOptions, CheckOutcome } from '../checker.ts'
import type { ThreadedTarget } from '../checkers/threaded.ts'

/** The main thread asks a check thread for one check. */
export interface CheckRequest extends CheckOptions {
  id: number
  target: ThreadedTarget
}

/** A check thread's answer: the outcome of request `id`. */
export interface CheckReply {
  id: number
  outcome: CheckOutcome
}
