import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor, findSealedCredentials } from '../monitors/find.ts'
import { runCheckOnProbe } from '../monitors/run-check.ts'
import { monitorConfigOf } from '../monitors/schedule.ts'

/**
 * Runs the service's check now on whichever probe answers first (`probe.any.check`) and returns
 * its result. The result is not stored: scheduled checks make the history.
 */
export async function checkService(ctx: CollectorContext, caller: Caller, id: string) {
  const monitor = await findMonitor(ctx.sql, caller, 'service', id)
  const sealed = await findSealedCredentials(ctx.sql, monitor.id)
  const result = await runCheckOnProbe(ctx, monitorConfigOf(monitor, sealed, ctx), 'any', 'PROBE_UNAVAILABLE')
  return {
    status: result.status,
    responseTime: result.responseTimeMs,
    message: result.error ?? (result.statusCode ? `${result.status} (${result.statusCode})` : result.status),
  }
}
