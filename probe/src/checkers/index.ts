import type { MonitorTarget } from '@guard/shared'
import type { CheckContext, CheckOutcome, TargetCheck } from '../checker.ts'
import { dnsChecker } from './dns/check.ts'
import { httpChecker } from './http/check.ts'
import { icmpChecker } from './icmp/check.ts'
import { tcpChecker } from './tcp/check.ts'
import { tlsChecker } from './tls/check.ts'

/** Hands the target to the checker of its kind. */
export function checkTarget(target: MonitorTarget, context: CheckContext): Promise<CheckOutcome> {
  switch (target.kind) {
    case 'http':
      return httpChecker.check(target, context)
    case 'tcp':
      return tcpChecker.check(target, context)
    case 'dns':
      return dnsChecker.check(target, context)
    case 'tls':
      return tlsChecker.check(target, context)
    case 'icmp':
      return icmpChecker.check(target, context)
  }
}

/** Checks on the calling thread, under a timeout that starts now. */
export const checkOnThisThread: TargetCheck = (target, { timeoutMs, allowPrivate }) =>
  checkTarget(target, { timeoutMs, signal: AbortSignal.timeout(timeoutMs), allowPrivate })
