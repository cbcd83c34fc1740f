import type { ErrorKind } from '@guard/shared'
import type { MessageId, PageText } from './i18n/page-text.ts'

/**
 * Why a check failed, in words a visitor may read. The probe's own text names addresses, ports and
 * library errors (`connect ECONNREFUSED 10.0.0.5:5432`), which a public page must never show: public
 * wording is derived from the closed set of kinds only, as messages of the page's catalog.
 */
const REASONS = {
  timeout: 'reason.timeout',
  dns: 'reason.dns',
  connect_refused: 'reason.connect_refused',
  connection_reset: 'reason.connection_reset',
  network: 'reason.network',
  refused_private_target: 'reason.refused_private_target',
  tls_invalid: 'reason.tls_invalid',
  tls_expired: 'reason.tls_expired',
  tls_expiring: 'reason.tls_expiring',
  too_many_redirects: 'reason.too_many_redirects',
  status_mismatch: 'reason.status_mismatch',
  keyword_missing: 'reason.content',
  keyword_present: 'reason.content',
  regex_mismatch: 'reason.content',
  json_assertion: 'reason.content',
  not_json: 'reason.content',
  slow: 'reason.slow',
  dns_no_answer: 'reason.dns_no_answer',
  dns_mismatch: 'reason.dns_mismatch',
  packet_loss: 'reason.packet_loss',
  unreachable: 'reason.unreachable',
  credentials_unavailable: 'reason.credentials_unavailable',
  missed: 'reason.missed',
  failed: 'reason.failed',
  exit_code: 'reason.failed',
  too_long: 'reason.too_long',
  not_serving: 'reason.not_serving',
  reply_mismatch: 'reason.reply_mismatch',
  close_code: 'reason.close_code',
  auth_failed: 'reason.auth_failed',
  protocol_error: 'reason.protocol_error',
  query_failed: 'reason.query_failed',
  assertion_failed: 'reason.assertion_failed',
  condition_failed: 'reason.condition_failed',
  host_key_changed: 'reason.host_key_changed',
  extraction_failed: 'reason.condition_failed',
  script_failed: 'reason.condition_failed',
  unknown: 'reason.unknown',
} satisfies Record<ErrorKind, MessageId>

export interface PublicReason {
  id: MessageId
  values?: { code: string }
}

/**
 * The plain reason of a failure: its kind's message, with the HTTP status when the status was the
 * failure (results of probes older than `errorKind` carry only a status code, or nothing).
 */
export function publicReason(kind: ErrorKind | null | undefined, statusCode?: number | null): PublicReason {
  if ((kind === 'status_mismatch' || !kind) && statusCode)
    return { id: 'reason.statusCode', values: { code: String(statusCode) } }
  return { id: REASONS[kind ?? 'unknown'] ?? REASONS.unknown }
}

export const reasonText = (reason: PublicReason, text: PageText) => text.text(reason.id, reason.values)
