import {
  BusRequestError,
  decodeJson,
  encodeJson,
  GuardError,
  type ManualCheckRequest,
  manualCheckReplyV1,
  manualCheckSubject,
} from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { findService } from './find.ts'
import { serviceMonitorConfig } from './target.ts'

/**
 * Runs the service's check now on whichever probe answers first (`probe.any.check`, queue group
 * `probes`) and returns its result. The result is not stored: scheduled checks make the history.
 */
export async function checkService(ctx: CollectorContext, caller: Caller, id: string) {
  const service = await findService(ctx.sql, caller, id)
  const request: ManualCheckRequest = { v: 1, monitor: { ...serviceMonitorConfig(service), enabled: true } }
  let reply: Uint8Array
  try {
    reply = await ctx.bus.request(manualCheckSubject('any'), encodeJson(request), {
      timeoutMs: Math.max(ctx.env.GUARD_MANUAL_CHECK_TIMEOUT_SECONDS, service.timeout + 5) * 1000,
    })
  } catch (error) {
    if (error instanceof BusRequestError && error.reason === 'no-responders') {
      throw new GuardError('PROBE_UNAVAILABLE', 'No probe is connected to run the check')
    }
    if (error instanceof BusRequestError && error.reason === 'timeout') {
      throw new GuardError('TIMEOUT', 'The probe did not answer in time')
    }
    if (error instanceof BusRequestError)
      throw new GuardError('PROBE_UNAVAILABLE', `The probe failed: ${error.message}`)
    throw error
  }
  const { result } = decodeJson(manualCheckReplyV1, reply)
  return {
    status: result.status,
    responseTime: result.responseTimeMs,
    message: result.error ?? (result.statusCode ? `${result.status} (${result.statusCode})` : result.status),
  }
}
