import { encodeCheckResult, GuardError, resultSubject } from '@guard/shared'
import type { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor, findSealedCredentials } from '../monitors/find.ts'
import { runCheckOnProbe } from '../monitors/run-check.ts'
import { monitorConfigOf } from '../monitors/schedule.ts'
import { runViewOf } from './run-view.ts'
import { runSyntheticInput, type SyntheticRunView } from './schemas.ts'
import { storeSyntheticRuns } from './store-runs.ts'

/**
 * Runs the check now on a probe of the chosen location (or any) and returns the run with its
 * steps; the run joins the check's last runs. With `store`, the result also goes where scheduled
 * results go (history, state, incidents), as a service's manual check does. A browser check runs
 * only on a probe with a browser: 503 naming the location when none is connected there.
 */
export async function runSynthetic({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string } & z.input<typeof runSyntheticInput>
}): Promise<SyntheticRunView> {
  const { id, ...options } = input
  const { location, store } = runSyntheticInput.parse(options)
  const monitor = await findMonitor(ctx.sql, caller, 'synthetic', id)
  const sealed = await findSealedCredentials(ctx.sql, monitor.id)
  const result = await runCheckOnProbe(ctx, monitorConfigOf(monitor, sealed, ctx), location, 'PROBE_UNAVAILABLE').catch(
    (error: unknown) => {
      if (monitor.target.kind === 'browser' && error instanceof GuardError && error.code === 'PROBE_UNAVAILABLE') {
        const where = location === 'any' ? 'any location' : `location ${location}`
        throw new GuardError(
          'PROBE_UNAVAILABLE',
          `No probe with a browser (GUARD_PROBE_BROWSER) is connected at ${where} to run the browser check`,
        )
      }
      throw error
    },
  )
  await storeSyntheticRuns(ctx.sql, [result])
  if (store) await ctx.bus.publish(resultSubject(result.location), encodeCheckResult(result), { msgId: result.id })
  return runViewOf(monitor.id, {
    id: result.id,
    location: result.location,
    startedAt: result.startedAt,
    status: result.status,
    responseTimeMs: result.responseTimeMs,
    error: result.error ?? null,
    errorKind: result.errorKind ?? null,
    steps: result.details?.steps ?? [],
    browser: result.details?.browser ?? null,
  })
}
