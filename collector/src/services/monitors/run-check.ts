import {
  BusRequestError,
  browserCheckSubject,
  type CheckResult,
  decodeJson,
  encodeJson,
  GuardError,
  type ManualCheckRequest,
  type MonitorConfig,
  manualCheckReplyV1,
  manualCheckSubject,
} from '@guard/shared'
import type { CollectorContext } from '../../context.ts'

/**
 * Runs one check now on one probe of `location` (or any probe) over request/reply, queue group
 * `probes`, and returns its result without storing it. `unanswered` is the error when no probe
 * answers: the service check says 503, the test route 504 (README "Test before saving").
 */
export async function runCheckOnProbe(
  ctx: CollectorContext,
  monitor: MonitorConfig,
  location: string | 'any',
  unanswered: 'PROBE_UNAVAILABLE' | 'TIMEOUT',
): Promise<CheckResult> {
  const request: ManualCheckRequest = { v: 1, monitor: { ...monitor, enabled: true } }
  const waitSeconds = Math.max(ctx.env.GUARD_MANUAL_CHECK_TIMEOUT_SECONDS, monitor.timeoutSeconds + 5)
  const where = location === 'any' ? 'No probe' : `No probe at location ${location}`
  let reply: Uint8Array
  try {
    // Browser checks go where only probes with a browser answer.
    const subject = monitor.target.kind === 'browser' ? browserCheckSubject(location) : manualCheckSubject(location)
    reply = await ctx.bus.request(subject, encodeJson(request), { timeoutMs: waitSeconds * 1000 })
  } catch (error) {
    if (error instanceof BusRequestError && error.reason === 'no-responders') {
      throw new GuardError(unanswered, `${where} is connected to run the check`)
    }
    if (error instanceof BusRequestError && error.reason === 'timeout') {
      throw new GuardError('TIMEOUT', `${where} answered within ${waitSeconds} s`)
    }
    if (error instanceof BusRequestError)
      throw new GuardError('PROBE_UNAVAILABLE', `The probe failed: ${error.message}`)
    throw error
  }
  return decodeJson(manualCheckReplyV1, reply).result
}
