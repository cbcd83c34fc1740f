import { BusRequestError, GuardError, resolveAllowedTarget, TargetRefusedError } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'

/**
 * One request to a probe of `location` (any probe when unset), its bus failures told as the API's
 * errors, in the caller's terms (`task`, such as "the port scan"), never naming the bus subject:
 * nobody listening is 503, no answer in time 504, the probe's own refusal (a target its guard
 * refused) 400 with the probe's reason.
 */
export async function askProbe(
  ctx: CollectorContext,
  request: { task: string; subject: string; body: Uint8Array; location: string | undefined; timeoutMs: number },
): Promise<Uint8Array> {
  const { task, subject, body, location, timeoutMs } = request
  const where = location ? `No probe at location ${location}` : 'No probe'
  try {
    return await ctx.bus.request(subject, body, { timeoutMs })
  } catch (error) {
    if (!(error instanceof BusRequestError)) throw error
    if (error.reason === 'no-responders') {
      throw new GuardError('PROBE_UNAVAILABLE', `${where} is connected to run ${task}`)
    }
    if (error.reason === 'timeout') {
      throw new GuardError('TIMEOUT', `${where} answered ${task} within ${timeoutMs / 1000} s`)
    }
    const reason = error.message.slice(error.message.indexOf(RESPONDER_FAILED) + RESPONDER_FAILED.length)
    throw new GuardError('VALIDATION_ERROR', `The probe could not run ${task}: ${reason}`)
  }
}

/** What the bus puts before a responder's own message, after the subject. */
const RESPONDER_FAILED = 'responder failed: '

/**
 * The SSRF guard on the collector's side, before anything reaches a probe: the target and every
 * address it resolves to must be public (unless GUARD_ALLOW_PRIVATE_TARGETS). Refusals, a name
 * that does not resolve included, are 400 with the guard's message; the probe guards again.
 */
export async function guardTarget(ctx: CollectorContext, target: string): Promise<void> {
  try {
    await resolveAllowedTarget(target, { allowPrivate: ctx.env.GUARD_ALLOW_PRIVATE_TARGETS })
  } catch (error) {
    if (error instanceof TargetRefusedError) throw new GuardError('VALIDATION_ERROR', error.message)
  }
}
