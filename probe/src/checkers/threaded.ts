import type { HttpTarget, MonitorTarget, TlsTarget } from '@guard/shared'
import type { CheckOptions, CheckOutcome } from '../checker.ts'
import { httpChecker } from './http/check.ts'
import { tlsChecker } from './tls/check.ts'

/** A target whose check goes to a check thread. */
export type ThreadedTarget = HttpTarget | TlsTarget

/**
 * Checks whose cost is mostly a TLS handshake go to the pool. Plain HTTP stays on the calling
 * thread: at about 0.3 CPU-ms a check, handing it to a thread and back costs more than it saves
 * (bench/probe measured 0.29 CPU-ms per plain HTTP check on the main thread, 0.37 to 0.53 pooled).
 * The other protocols stay too: they wait on their servers more than they compute, and their
 * drivers (some with native parts) are no part of the check thread's bundle.
 */
export const runsOnThread = (target: MonitorTarget): target is ThreadedTarget =>
  target.kind === 'tls' || (target.kind === 'http' && /^https:/i.test(target.url))

/** What a check thread runs: only these checkers are bundled into it. */
export function checkOnCheckThread(
  target: ThreadedTarget,
  { timeoutMs, allowPrivate }: CheckOptions,
): Promise<CheckOutcome> {
  const context = { timeoutMs, signal: AbortSignal.timeout(timeoutMs), allowPrivate }
  return target.kind === 'tls' ? tlsChecker.check(target, context) : httpChecker.check(target, context)
}
