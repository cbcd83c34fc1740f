import { parseDuration } from '../../../conditions/duration.ts'
import { ConditionSyntaxError, parseCondition } from '../../../conditions/parse.ts'

export type ConditionVerdict =
  /** Carried as it is written. */
  | { kind: 'kept' }
  /** What the check does anyway; nothing to write. */
  | { kind: 'implied' }
  /** Becomes an option of the check. */
  | { kind: 'option'; name: string; value: unknown; note?: string }
  | { kind: 'unmapped'; reason: string }

const NOT_GUARD: Record<string, string> = {
  DOMAIN_EXPIRATION:
    "Guard reads every domain monitor's registration expiry over RDAP on its own (the domain's registration) rather than in a condition",
  DNS_RCODE: "[DNS_RCODE] is a placeholder of Gatus's DNS checks only",
  CONTEXT: "[CONTEXT] belongs to Gatus's suites, which Guard does not import",
}

function gatusOnly(condition: string): string | undefined {
  const name = /\[(DOMAIN_EXPIRATION|DNS_RCODE|CONTEXT)\]/i.exec(condition)?.[1]
  return name === undefined ? undefined : NOT_GUARD[name.toUpperCase()]
}

/** An HTTP endpoint's condition: Guard's conditions speak Gatus's grammar, so it is kept when it parses. */
export function httpConditionVerdict(condition: string): ConditionVerdict {
  const only = gatusOnly(condition)
  if (only) return { kind: 'unmapped', reason: only }
  try {
    parseCondition(condition)
    return { kind: 'kept' }
  } catch (error) {
    if (!(error instanceof ConditionSyntaxError)) throw error
    return { kind: 'unmapped', reason: `Guard's condition parser refuses it: ${error.message}` }
  }
}

const unquote = (value: string) => value.trim().replace(/^(["'])(.*)\1$/, '$2')

/**
 * A condition of a TCP, UDP, ICMP, DNS, TLS, WebSocket, gRPC or SSH endpoint → what Guard's
 * service check of that protocol does: the same test (nothing to write), an option, or nothing.
 */
export function serviceConditionVerdict(condition: string, protocol: string): ConditionVerdict {
  const text = condition.trim()
  if (/^\[CONNECTED\]\s*==\s*true$/i.test(text)) return { kind: 'implied' }
  const slow = /^\[RESPONSE_TIME\]\s*(<|<=)\s*(\d+)$/i.exec(text)
  if (slow) return { kind: 'option', name: 'downAboveMs', value: Number(slow[2]) }
  const certificate = /^\[CERTIFICATE_EXPIRATION\]\s*(>|>=)\s*(\S+)$/i.exec(text)
  const left = certificate ? parseDuration(certificate[2]!) : undefined
  if (protocol === 'tls' && left !== undefined) {
    const days = Math.ceil(left / 86_400_000)
    return {
      kind: 'option',
      name: 'warnDays',
      value: days,
      note: `carried as warnDays: ${days}; Guard's TLS check turns degraded, not down, when the certificate expires within it`,
    }
  }
  if (protocol === 'dns') {
    if (/^\[DNS_RCODE\]\s*==\s*NOERROR$/i.test(text)) return { kind: 'implied' }
    const answer = /^\[BODY\]\s*==\s*([^()]+)$/i.exec(text)
    if (answer) return { kind: 'option', name: 'expected', value: unquote(answer[1]!) }
  }
  if (protocol === 'grpc' && /^\[BODY\]\.status\s*==\s*["']?SERVING["']?$/i.test(text)) return { kind: 'implied' }
  if (protocol === 'websocket') {
    const contains = /^\[BODY\]\s*==\s*pat\(\s*\*([^*?]+)\*\s*\)$/i.exec(text)
    if (contains) return { kind: 'option', name: 'replyContains', value: contains[1] }
  }
  const only = gatusOnly(text)
  return { kind: 'unmapped', reason: only ?? `Guard's ${protocol} check has no such condition` }
}
