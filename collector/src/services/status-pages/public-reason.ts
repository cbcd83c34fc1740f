import type { ErrorKind } from '@guard/shared'

/**
 * Why a check failed, in words a visitor may read. The probe's own text names addresses, ports and
 * library errors (`connect ECONNREFUSED 10.0.0.5:5432`), which a public page must never show: public
 * wording is derived from the closed set of kinds only. Every visitor-facing reason is here.
 */
const REASONS = {
  timeout: 'Timed out',
  dns: 'DNS lookup failed',
  connect_refused: 'Connection refused',
  connection_reset: 'Connection reset',
  network: 'Network error',
  refused_private_target: 'Target not allowed',
  tls_invalid: 'Invalid TLS certificate',
  tls_expired: 'TLS certificate expired',
  tls_expiring: 'TLS certificate about to expire',
  too_many_redirects: 'Too many redirects',
  status_mismatch: 'Unexpected status',
  keyword_missing: 'Unexpected content',
  keyword_present: 'Unexpected content',
  regex_mismatch: 'Unexpected content',
  json_assertion: 'Unexpected content',
  not_json: 'Unexpected content',
  slow: 'Slow responses',
  dns_no_answer: 'DNS lookup returned no answer',
  dns_mismatch: 'Unexpected DNS answer',
  packet_loss: 'Packet loss',
  unreachable: 'Unreachable',
  credentials_unavailable: 'Check could not run',
  missed: 'Scheduled job did not report',
  failed: 'Scheduled job failed',
  exit_code: 'Scheduled job failed',
  too_long: 'Scheduled job ran too long',
  not_serving: 'Not serving',
  reply_mismatch: 'Unexpected reply',
  close_code: 'Connection closed unexpectedly',
  auth_failed: 'Authentication failed',
  protocol_error: 'Protocol error',
  query_failed: 'Query failed',
  assertion_failed: 'Unexpected query result',
  condition_failed: 'Unexpected response',
  host_key_changed: 'Host key changed',
  extraction_failed: 'Unexpected response',
  unknown: 'Checks failing',
} satisfies Record<ErrorKind, string>

/**
 * The plain reason of a failure: its kind's wording, with the HTTP status when the status was the
 * failure (results of probes older than `errorKind` carry only a status code, or nothing).
 */
export function publicReason(kind: ErrorKind | null | undefined, statusCode?: number | null): string {
  if ((kind === 'status_mismatch' || !kind) && statusCode) return `${REASONS.status_mismatch} ${statusCode}`
  return REASONS[kind ?? 'unknown'] ?? REASONS.unknown
}
