import type { ErrorKind } from '@guard/shared'
import { truncateText } from '@guard/shared'
import { TargetRefusedError } from '@guard/shared/net'
import type { CheckContext, CheckOutcome } from '../checker.ts'

export const roundMs = (ms: number) => Math.round(ms * 10) / 10

export const elapsedSince = (started: number) => roundMs(performance.now() - started)

/** A readable reason for a failed check: the timeout, the system error code, or the message. */
export function describeFailure(error: unknown, context: CheckContext): string {
  if (context.signal.aborted) return `timed out after ${context.timeoutMs} ms`
  if (!(error instanceof Error)) return String(error)
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message
}

const DNS_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'ENODATA',
  'ESERVFAIL',
  'ENONAME',
])
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET'])
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN'])

const codeOf = (error: unknown): string | undefined => {
  if (!(error instanceof Error)) return undefined
  const code = (error as NodeJS.ErrnoException).code
  if (code) return code
  return error.cause instanceof Error ? codeOf(error.cause) : undefined
}

/** A certificate verification failure: expired, or invalid for another reason. */
export const tlsErrorKind = (problem: string): ErrorKind => (/expired/i.test(problem) ? 'tls_expired' : 'tls_invalid')

/** The machine-readable reason of a thrown failure (README "Why it is down"). */
export function classifyFailure(error: unknown, context: CheckContext): ErrorKind {
  if (context.signal.aborted) return 'timeout'
  if (error instanceof TargetRefusedError) return 'refused_private_target'
  const code = codeOf(error)
  if (code === 'ECONNREFUSED') return 'connect_refused'
  if (code && DNS_CODES.has(code)) return 'dns'
  if (code && RESET_CODES.has(code)) return 'connection_reset'
  if (code && UNREACHABLE_CODES.has(code)) return 'unreachable'
  if (code === 'ETIMEDOUT') return 'timeout'
  if (code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO/.test(code)) return tlsErrorKind(code)
  const message = error instanceof Error ? error.message : String(error)
  if (/did not resolve/.test(message)) return 'dns'
  if (/redirects/.test(message)) return 'too_many_redirects'
  return 'network'
}

export function failed(error: unknown, context: CheckContext, started: number, extra: Partial<CheckOutcome> = {}) {
  return {
    status: 'down',
    responseTimeMs: elapsedSince(started),
    error: truncateText(describeFailure(error, context), 2000),
    errorKind: classifyFailure(error, context),
    ...extra,
  } satisfies CheckOutcome
}

/** Rejects as soon as the signal aborts, so a step that ignores signals cannot outlive the timeout. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted()
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
