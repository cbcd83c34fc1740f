import { BusRequestError, GuardError, resolveAllowedTarget, TargetRefusedError } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'

/**
 * One request to a probe of `location` (any probe when unset), its bus failures told as the API's
 * errors: nobody listening is 503, no answer in time 504, the probe's own refusal (a target its
 * guard refused, a name that does not resolve) 400 with the probe's message.
 */
export async function askProbe(
  ctx: CollectorContext,
  subject: string,
  body: Uint8Array,
  location: string | undefined,
  timeoutMs: number,
): Promise<Uint8Array> {
  const where = location ? `No probe at location ${location}` : 'No probe'
  try {
    return await ctx.bus.request(subject, body, { timeoutMs })
  } catch (error) {
    if (!(error instanceof BusRequestError)) throw error
    if (error.reason === 'no-responders') throw new GuardError('PROBE_UNAVAILABLE', `${where} is connected`)
    if (error.reason === 'timeout') throw new GuardError('TIMEOUT', `${where} answered within ${timeoutMs / 1000} s`)
    throw new GuardError('VALIDATION_ERROR', error.message.replace(/^responder failed: /, ''))
  }
}

/**
 * The SSRF guard on the collector's side, before anything reaches a probe: the target and every
 * address it resolves to must be public (unless GUARD_ALLOW_PRIVATE_TARGETS). Refusals are 400
 * with the guard's message. A name that does not resolve here passes: the probe resolves it with
 * its own resolvers and guards it again.
 */
export async function guardTarget(ctx: CollectorContext, target: string): Promise<void> {
  try {
    await resolveAllowedTarget(target, { allowPrivate: ctx.env.GUARD_ALLOW_PRIVATE_TARGETS })
  } catch (error) {
    if (error instanceof TargetRefusedError) throw new GuardError('VALIDATION_ERROR', error.message)
  }
}
