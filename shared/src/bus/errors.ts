/** Why a request got no reply; callers map these to distinct answers (no probe there vs. too slow). */
export type RequestFailure = 'no-responders' | 'timeout' | 'responder-failed'

export class BusRequestError extends Error {
  constructor(
    readonly reason: RequestFailure,
    readonly subject: string,
    detail: string,
  ) {
    super(`request on '${subject}': ${detail}`)
    this.name = 'BusRequestError'
  }
}

export const noResponders = (subject: string) => new BusRequestError('no-responders', subject, 'no responders')

export const requestTimedOut = (subject: string, timeoutMs: number) =>
  new BusRequestError('timeout', subject, `timed out after ${timeoutMs} ms`)

export const responderFailed = (subject: string, message: string) =>
  new BusRequestError('responder-failed', subject, `responder failed: ${message}`)

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error))
