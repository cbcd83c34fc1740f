import type { CheckContext, CheckOutcome } from '../checker.ts'

export const roundMs = (ms: number) => Math.round(ms * 10) / 10

export const elapsedSince = (started: number) => roundMs(performance.now() - started)

/** A readable reason for a failed check: the timeout, the system error code, or the message. */
export function describeFailure(error: unknown, context: CheckContext): string {
  if (context.signal.aborted) return `timed out after ${context.timeoutMs} ms`
  if (!(error instanceof Error)) return String(error)
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message
}

export function failed(error: unknown, context: CheckContext, started: number, extra: Partial<CheckOutcome> = {}) {
  return {
    status: 'down',
    responseTimeMs: elapsedSince(started),
    error: describeFailure(error, context).slice(0, 2000),
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
