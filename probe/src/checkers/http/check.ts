import type { MonitorConfig } from '@guard/shared'
import type { Checker, CheckOutcome } from '../../checker.ts'

type HttpTarget = Extract<MonitorConfig['target'], { kind: 'http' }>

const describe = (error: unknown, timeoutMs: number): string => {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error instanceof Error ? error.message : String(error)}${cause}`
}

/** An HTTP(S) request; any status below 400 is up. */
export const httpChecker: Checker<HttpTarget> = {
  kind: 'http',
  async check(target, { timeoutMs }): Promise<CheckOutcome> {
    const started = performance.now()
    try {
      const response = await fetch(target.url, {
        method: target.method,
        redirect: 'follow',
        signal: AbortSignal.timeout(timeoutMs),
        headers: { 'user-agent': 'Guard-Probe/0.1 (+https://github.com/guard-monitoring)' },
      })
      await response.arrayBuffer()
      const responseTimeMs = Math.round(performance.now() - started)
      const up = response.status < 400
      return {
        status: up ? 'up' : 'down',
        responseTimeMs,
        statusCode: response.status,
        ...(up ? {} : { error: `HTTP ${response.status}` }),
      }
    } catch (error) {
      return {
        status: 'down',
        responseTimeMs: Math.round(performance.now() - started),
        error: describe(error, timeoutMs),
      }
    }
  },
}
