import type { MonitorTarget } from '@guard/shared'
import { browserChecker } from '../browser/browser-checker.ts'
import type { CheckContext, Checker, CheckOutcome, TargetCheck } from '../checker.ts'
import { dnsChecker } from './dns/check.ts'
import { flowChecker } from './flow/check.ts'
import { grpcChecker } from './grpc/check.ts'
import { httpChecker } from './http/check.ts'
import { icmpChecker } from './icmp/check.ts'
import { imapChecker } from './imap/check.ts'
import { mongodbChecker } from './mongodb/check.ts'
import { mqttChecker } from './mqtt/check.ts'
import { mysqlChecker } from './mysql/check.ts'
import { pop3Checker } from './pop3/check.ts'
import { postgresChecker } from './postgres/check.ts'
import { redisChecker } from './redis/check.ts'
import { smtpChecker } from './smtp/check.ts'
import { sshChecker } from './ssh/check.ts'
import { tcpChecker } from './tcp/check.ts'
import { tlsChecker } from './tls/check.ts'
import { udpChecker } from './udp/check.ts'
import { websocketChecker } from './websocket/check.ts'

type Kind = MonitorTarget['kind']

/** One checker per kind; a kind without one does not compile. */
const checkers: { [K in Kind]: Checker<K> } = {
  http: httpChecker,
  tcp: tcpChecker,
  dns: dnsChecker,
  tls: tlsChecker,
  icmp: icmpChecker,
  flow: flowChecker,
  browser: browserChecker,
  udp: udpChecker,
  grpc: grpcChecker,
  websocket: websocketChecker,
  mqtt: mqttChecker,
  postgres: postgresChecker,
  mysql: mysqlChecker,
  redis: redisChecker,
  mongodb: mongodbChecker,
  smtp: smtpChecker,
  imap: imapChecker,
  pop3: pop3Checker,
  ssh: sshChecker,
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
