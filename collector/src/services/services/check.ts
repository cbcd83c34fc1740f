import { encodeCheckResult, resultSubject } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor, findSealedCredentials } from '../monitors/find.ts'
import { runCheckOnProbe } from '../monitors/run-check.ts'
import { monitorConfigOf } from '../monitors/schedule.ts'

/**
 * Runs the service's check now on whichever probe answers first (`probe.any.check`) and returns
 * its result. With `store`, the result goes where the probe's scheduled results go, so history,
 * state and incidents take it like any other check (a user who just fixed an outage sees the
 * service up without waiting an interval); without, it is only shown.
 */
export async function checkService(ctx: CollectorContext, caller: Caller, id: string, { store = false } = {}) {
  const monitor = await findMonitor(ctx.sql, caller, 'service', id)
  const sealed = await findSealedCredentials(ctx.sql, monitor.id)
  const result = await runCheckOnProbe(ctx, monitorConfigOf(monitor, sealed, ctx), 'any', 'PROBE_UNAVAILABLE')
  if (store) {
    await ctx.bus.publish(resultSubject(result.location), encodeCheckResult(result), { msgId: result.id })
  }
  return {
    status: result.status,
    responseTime: result.responseTimeMs,
    message: result.error ?? (result.statusCode ? `${result.status} (${result.statusCode})` : result.status),
  }
}
