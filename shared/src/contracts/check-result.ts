import { z } from 'zod'
import { parseWellFormedJson } from '../text/well-formed.ts'
import { browserRunDetails } from './browser-target.ts'
import { flowStepRun } from './flow.ts'
import { protocolKinds } from './protocols/index.ts'

/** What a probe publishes on `results.<location>` for every check it runs. */
export const checkStatus = z.enum(['up', 'down', 'degraded'])
export type CheckStatus = z.infer<typeof checkStatus>

const millis = z.number().nonnegative()

/** What a result says beyond its common fields; kinds without details carry none. */
export const resultDetails = z.object({
  /** Multi-step API checks: each step's outcome and timings. */
  steps: z.array(flowStepRun).max(20).optional(),
  /** Browser checks: steps, Web Vitals, console errors, failed requests, stored artifacts. */
  browser: browserRunDetails.optional(),
})
export type ResultDetails = z.infer<typeof resultDetails>

export const timingPhases = z.object({
  dnsMs: millis.optional(),
  connectMs: millis.optional(),
  tlsMs: millis.optional(),
  firstByteMs: millis.optional(),
  transferMs: millis.optional(),
  /** Databases: from the authenticated connection to the query's answer. */
  queryMs: millis.optional(),
})

export const certificateInfo = z.object({
  valid: z.boolean(),
  expiresAt: z.iso.datetime(),
  issuer: z.string(),
  subject: z.string(),
  validFrom: z.iso.datetime().optional(),
  fingerprint256: z.string().optional(),
})

/**
 * Why a check was not `up`, machine-readable: the closed set a client can switch on. `error` keeps
 * the human message. Results of probes older than this field carry none.
 */
export const errorKind = z.enum([
  'timeout',
  'dns',
  'connect_refused',
  'connection_reset',
  'network',
  'refused_private_target',
  'tls_invalid',
  'tls_expired',
  'tls_expiring',
  'too_many_redirects',
  'status_mismatch',
  'keyword_missing',
  'keyword_present',
  'regex_mismatch',
  'json_assertion',
  'not_json',
  'slow',
  'dns_no_answer',
  'dns_mismatch',
  'packet_loss',
  'unreachable',
  'credentials_unavailable',
  /** Heartbeat monitors: no ping by the expected time plus grace. */
  'missed',
  /** Heartbeat monitors: the job pinged `/fail`. */
  'failed',
  /** Heartbeat monitors: the job ended with a nonzero exit code. */
  'exit_code',
  /** Heartbeat monitors: a run started and did not end within its maximum duration. */
  'too_long',
  /** gRPC: the health service answered, with a status other than SERVING. */
  'not_serving',
  /** UDP, WebSocket, MQTT: no reply or message matched what was expected. */
  'reply_mismatch',
  /** WebSocket: the server closed with another code than expected. */
  'close_code',
  /** Mail, databases, MQTT, SSH: the server refused the credentials. */
  'auth_failed',
  /** The server spoke, but not the protocol (a wrong banner, greeting or reply code). */
  'protocol_error',
  /** Databases: the query failed. */
  'query_failed',
  /** Databases: the query ran, and its row count or value was not the one asserted. */
  'assertion_failed',
  /** HTTP: a `conditions` entry did not hold; `error` names it. */
  'condition_failed',
  /** SSH: the host key's fingerprint is not the pinned one. */
  'host_key_changed',
  /** Multi-step checks: a step's extraction found nothing, or a `{{variable}}` was never set. */
  'extraction_failed',
  /** Browser checks: the script failed (a step, an assertion, an action) or hit its deadline. */
  'script_failed',
  'unknown',
])
export type ErrorKind = z.infer<typeof errorKind>

export const checkResultV1 = z.object({
  v: z.literal(1),
  /** Unique per check run; doubles as the JetStream message id so retries are dropped. */
  id: z.string().min(1),
  monitorId: z.string().min(1),
  organizationId: z.string().min(1),
  location: z.string().regex(/^[a-z0-9-]{2,32}$/),
  /** `heartbeat`: not a probe's check but a heartbeat monitor's ping or missed deadline (location `heartbeat`). */
  kind: z.enum(['http', 'tcp', 'dns', 'tls', 'icmp', 'flow', 'browser', ...protocolKinds, 'heartbeat']),
  status: checkStatus,
  startedAt: z.iso.datetime(),
  responseTimeMs: millis,
  statusCode: z.number().int().min(0).max(999).optional(),
  error: z.string().max(2000).optional(),
  errorKind: errorKind.optional(),
  phases: timingPhases.optional(),
  certificate: certificateInfo.optional(),
  /** The IP address the check connected to, after the target guard vetted it. */
  address: z.string().optional(),
  /** DNS checks: the answers received, as text. */
  answers: z.array(z.string().max(1000)).max(100).optional(),
  /** ICMP checks: share of echo requests without a reply. */
  packetLossPercent: z.number().min(0).max(100).optional(),
  /**
   * The probe's own connectivity canary was failing when this check failed: the failure says
   * nothing about the target, so the state machine leaves this location as it was (README "Dependencies").
   */
  probeDegraded: z.literal(true).optional(),
  /** Multi-step checks: each step's outcome and timings (never a secret nor a response body). */
  details: resultDetails.optional(),
})

export type CheckResult = z.infer<typeof checkResultV1>

export const resultSubject = (location: string) => `results.${location}`

export function encodeCheckResult(result: CheckResult): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(checkResultV1.parse(result)))
}

/** Decoding without `stream` keeps no state between calls, so one decoder serves every message. */
const utf8 = new TextDecoder()

/** Throws a ZodError (or SyntaxError) for anything that is not a v1 check result. */
export function decodeCheckResult(data: Uint8Array): CheckResult {
  return checkResultV1.parse(parseWellFormedJson(utf8.decode(data)))
}
