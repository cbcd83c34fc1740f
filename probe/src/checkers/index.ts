import type { MonitorTarget } from '@guard/shared'
import type { CheckContext, Checker, CheckOutcome, TargetCheck } from '../checker.ts'
import { dnsChecker } from './dns/check.ts'
import { httpChecker } from './http/check.ts'
import { icmpChecker } from './icmp/check.ts'
import { tcpChecker } from './tcp/check.ts'
import { tlsChecker } from './tls/check.ts'
import { udpChecker } from './udp/check.ts'

type Kind = MonitorTarget['kind']

/** One checker per kind; a kind without one does not compile. */
const checkers: { [K in Kind]: Checker<K> } = {
  http: httpChecker,
  tcp: tcpChecker,
  dns: dnsChecker,
  tls: tlsChecker,
  icmp: icmpChecker,
  udp: udpChecker,
}

/** Hands the target to the checker of its kind. */
export function checkTarget<K extends Kind>(
  target: Extract<MonitorTarget, { kind: K }>,
  context: CheckContext,
): Promise<CheckOutcome> {
  return (checkers[target.kind as K] as Checker<K>).check(target, context)
}

/** Checks on the calling thread, under a timeout that starts now. */
export const checkOnThisThread: TargetCheck = (target, { timeoutMs, allowPrivate }) =>
  checkTarget(target, { timeoutMs, signal: AbortSignal.timeout(timeoutMs), allowPrivate })
